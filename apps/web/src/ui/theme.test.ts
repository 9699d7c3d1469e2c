import { DEFAULT_THEME, darken } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import {
  ACCENT_ORDER,
  ACCENTS,
  accentPalette,
  buildTheme,
  contrastRatio,
  cssVariablesResolver,
  FILLED_SHADE,
  isAccent,
  relativeLuminance,
} from './theme';

const WHITE = '#ffffff';
const BLACK = '#000000';
const dark = DEFAULT_THEME.colors.dark;
const darkSurfaces = [dark[7], dark[6], dark[5]]; // body, paper and default controls, hovered rows

function rgbToHex(rgb: string): string {
  const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
  return `#${[r, g, b].map((channel) => channel!.toString(16).padStart(2, '0')).join('')}`;
}

describe.each(ACCENT_ORDER)('the %s palette', (accent) => {
  const palette = accentPalette(accent);

  it('keeps the raw accent as shade 5 and runs from light to dark', () => {
    expect(palette[5]).toBe(ACCENTS[accent]);
    const luminances = palette.map(relativeLuminance);
    for (let i = 1; i < luminances.length; i++) expect(luminances[i]!).toBeLessThanOrEqual(luminances[i - 1]!);
  });

  it('light scheme: text, links and outlines (shade 8) meet AA on white', () => {
    expect(contrastRatio(palette[8], WHITE)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(palette[9], palette[1])).toBeGreaterThanOrEqual(4.5); // light variant: text on tint
  });

  it('dark scheme: text and links (shade 4) meet AA on every dark surface', () => {
    for (const surface of darkSurfaces) expect(contrastRatio(palette[4], surface)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(palette[0], rgbToHex(darken(palette[9], 0.5)))).toBeGreaterThanOrEqual(4.5); // light variant
  });

  it('fills (shade 8, hover 9) carry white text readably in both schemes', () => {
    const threshold = buildTheme(accent).luminanceThreshold!;
    expect(relativeLuminance(palette[FILLED_SHADE]) <= threshold).toBe(true); // Mantine picks white text
    expect(contrastRatio(palette[FILLED_SHADE], WHITE)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(palette[9], WHITE)).toBeGreaterThanOrEqual(4.5);
  });

  it('draws focus rings at 3:1 or more against the page in both schemes', () => {
    expect(contrastRatio(palette[FILLED_SHADE], WHITE)).toBeGreaterThanOrEqual(3);
    for (const surface of darkSurfaces) expect(contrastRatio(palette[4], surface)).toBeGreaterThanOrEqual(3);
  });
});

describe('every theme colour as a fill', () => {
  it('gets the text colour Mantine picks (once, for both schemes) readable on its filled shade', () => {
    const threshold = buildTheme('cyan').luminanceThreshold!;
    for (const shades of Object.values(DEFAULT_THEME.colors)) {
      const text = relativeLuminance(shades[FILLED_SHADE]) > threshold ? BLACK : WHITE;
      expect(contrastRatio(shades[FILLED_SHADE], text)).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('isAccent', () => {
  it('accepts the three accents only', () => {
    expect(ACCENT_ORDER.every(isAccent)).toBe(true);
    expect(isAccent('toString')).toBe(false);
    expect(isAccent('red')).toBe(false);
    expect(isAccent(null)).toBe(false);
  });
});

describe('cssVariablesResolver', () => {
  const theme = {
    ...DEFAULT_THEME,
    ...buildTheme('cyan'),
    colors: { ...DEFAULT_THEME.colors, ...buildTheme('cyan').colors },
  } as typeof DEFAULT_THEME;
  const variables = cssVariablesResolver(theme);

  it('gives every colour a text shade that meets AA on white, its tint, and the dark surfaces', () => {
    for (const [name, shades] of Object.entries(DEFAULT_THEME.colors)) {
      if (name === 'dark') continue;
      const lightText = variables.light[`--mantine-color-${name}-text`]!;
      for (const background of [WHITE, shades[0], shades[1]])
        expect(contrastRatio(lightText, background)).toBeGreaterThanOrEqual(4.5);
      const darkText = variables.dark[`--mantine-color-${name}-text`]!;
      for (const surface of darkSurfaces) expect(contrastRatio(darkText, surface)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('makes dimmed text readable in both schemes', () => {
    expect(contrastRatio(variables.light['--mantine-color-dimmed']!, WHITE)).toBeGreaterThanOrEqual(4.5);
    expect(
      contrastRatio(variables.light['--mantine-color-dimmed']!, DEFAULT_THEME.colors.gray[0]),
    ).toBeGreaterThanOrEqual(4.5);
    for (const surface of darkSurfaces)
      expect(contrastRatio(variables.dark['--mantine-color-dimmed']!, surface)).toBeGreaterThanOrEqual(4.5);
  });
});
