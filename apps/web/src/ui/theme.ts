import {
  createTheme,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MantineThemeOverride,
} from '@mantine/core';

export const ACCENTS = { cyan: '#00ffff', teal: '#0dffc9', purple: '#bf00ff' } as const;
export type Accent = keyof typeof ACCENTS;
export const ACCENT_ORDER: Accent[] = ['cyan', 'teal', 'purple'];

export function isAccent(value: unknown): value is Accent {
  return typeof value === 'string' && Object.hasOwn(ACCENTS, value);
}

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

function mix(color: Rgb, target: number, amount: number): Rgb {
  return color.map((channel) => channel + (target - channel) * amount) as Rgb;
}

/** WCAG relative luminance (0 black .. 1 white). */
export function relativeLuminance(hex: string): number {
  const linear = parseHex(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * linear[0]! + 0.7152 * linear[1]! + 0.0722 * linear[2]!;
}

/** WCAG contrast ratio of two colours (1 .. 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The least mix of `base` toward white (255) or black (0), from `minimum` up, whose luminance passes `good`. */
function shade(base: Rgb, target: 0 | 255, minimum: number, good: (luminance: number) => boolean): string {
  let amount = minimum;
  while (amount < 1 && !good(relativeLuminance(toHex(mix(base, target, amount))))) amount = Math.min(1, amount + 0.01);
  return toHex(mix(base, target, amount));
}

// Each shade's job in Mantine and the luminance that keeps it readable whatever the accent:
// both schemes: 8 = filled buttons, badges and switches, with white text (9 when hovered).
// light scheme: 8 = text, links, outlines and focus rings on white; 9 on 1 = the light variant.
// dark scheme: 4 = text, links, outlines and focus rings on the dark body; 0 on a darkened 9 = the light variant.
const LIGHTER: { amount: number; atLeast: number }[] = [
  { amount: 0.9, atLeast: 0.88 },
  { amount: 0.75, atLeast: 0.77 },
  { amount: 0.55, atLeast: 0.64 },
  { amount: 0.35, atLeast: 0.52 },
  { amount: 0.15, atLeast: 0.4 },
];
const DARKER: { amount: number; atMost: number }[] = [
  { amount: 0.25, atMost: 0.3 },
  { amount: 0.42, atMost: 0.2 },
  { amount: 0.55, atMost: 0.12 },
  { amount: 0.68, atMost: 0.07 },
];

/**
 * Ten shades around the raw accent (shade 5), each pushed far enough from it to keep its contrast: the raw
 * accents are far too light for text on white (cyan on white is about 1.3:1), and purple is too dark for text
 * on the dark body. See primaryShade below for which shade each scheme uses.
 */
export function accentPalette(accent: Accent): MantineColorsTuple {
  const base = parseHex(ACCENTS[accent]);
  return [
    ...LIGHTER.map(({ amount, atLeast }) => shade(base, 255, amount, (luminance) => luminance >= atLeast)),
    ACCENTS[accent],
    ...DARKER.map(({ amount, atMost }) => shade(base, 0, amount, (luminance) => luminance <= atMost)),
  ] as unknown as MantineColorsTuple;
}

/** The least mix of `color` toward `target` that reaches `ratio` against every background. */
function readableOn(color: string, backgrounds: string[], target: 0 | 255, ratio = 4.6): string {
  const base = parseHex(color);
  for (let amount = 0; amount < 1; amount += 0.02) {
    const candidate = toHex(mix(base, target, amount));
    if (backgrounds.every((background) => contrastRatio(candidate, background) >= ratio)) return candidate;
  }
  return target === 0 ? '#000000' : '#ffffff';
}

const DARK_SURFACES = ['#242424', '#2e2e2e', '#3b3b3b']; // Mantine's dark-7 body, dark-6 paper, dark-5 hover

/**
 * Keeps every theme colour's text readable (WCAG AA) in both schemes. Mantine draws coloured text
 * (`c="green"`, alerts, outline and subtle buttons) in shade 8 or 9 on white or on the colour's tint in
 * light mode, and in shade 4 on the dark body, and several of its defaults (green, teal, orange, yellow, the
 * dimmed grey, the error red) fall below 4.5:1 there. The accent's own palette is built to pass already.
 */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': '#5f666d',
    '--mantine-color-error': 'var(--mantine-color-red-text)',
  };
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': '#a6a6a6',
    '--mantine-color-error': 'var(--mantine-color-red-text)',
  };
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (name === 'accent' || name === 'dark' || !shades) continue;
    const lightText = readableOn(shades[9], ['#ffffff', shades[0], shades[1]], 0);
    light[`--mantine-color-${name}-text`] = lightText;
    light[`--mantine-color-${name}-light-color`] = lightText;
    light[`--mantine-color-${name}-outline`] = lightText;
    dark[`--mantine-color-${name}-text`] = readableOn(shades[4], DARK_SURFACES, 255);
  }
  return { variables: {}, light, dark };
};

/** The shade of filled buttons, badges, switches and other fills, for every colour and both schemes. */
export const FILLED_SHADE = 8;

/** The typefaces the app ships (@fontsource-variable packages), then the system's for anything they lack. */
export const APP_FONT_FAMILY = '"Inter Variable", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
export const APP_MONOSPACE_FAMILY =
  '"JetBrains Mono Variable", ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace';

const themes = new Map<Accent, MantineThemeOverride>();

/** The product's theme for an accent (built once per accent, so providers keep a stable object). */
export function buildTheme(accent: Accent): MantineThemeOverride {
  const cached = themes.get(accent);
  if (cached) return cached;
  const theme = createTheme({
    primaryColor: 'accent',
    colors: { accent: accentPalette(accent) },
    // One filled shade in both schemes: Mantine picks black or white text for a filled colour once, in
    // JavaScript, without knowing the scheme, so the shade must be the same in both for that pick to hold.
    // Shade 8 keeps fills, their focus rings and their edges visible on white, where most people work;
    // dark mode draws accent text, links and outlines in the bright shade 4 (and its focus rings, theme.css).
    primaryShade: { light: FILLED_SHADE, dark: FILLED_SHADE },
    // Filled colours pick dark or light text by luminance; 0.18 is where both contrasts are equal.
    autoContrast: true,
    luminanceThreshold: 0.18,
    // The shipped typefaces first (main.tsx loads them); the rest only draw characters they lack.
    fontFamily: APP_FONT_FAMILY,
    fontFamilyMonospace: APP_MONOSPACE_FAMILY,
    headings: { fontWeight: '650', fontFamily: APP_FONT_FAMILY },
    defaultRadius: 'md',
    cursorType: 'pointer',
    focusRing: 'auto',
    // The mobile breakpoint is 640 px: 'sm' is where the sidebar opens.
    breakpoints: { xs: '36em', sm: '40em', md: '62em', lg: '75em', xl: '88em' },
    components: {
      Table: { defaultProps: { highlightOnHover: true } },
      // Mantine's close buttons (dialogs, notifications, alerts) are icons with no name of their own.
      CloseButton: { defaultProps: { 'aria-label': 'Close' } },
      // A dialog's or a drawer's title bar is drawn as <header>, which outside a section is a second banner landmark beside the
      // app's own header (axe: landmark-no-duplicate-banner): a plain block does.
      ModalHeader: { defaultProps: { component: 'div' } },
      DrawerHeader: { defaultProps: { component: 'div' } },
      // A link inside text must not be told apart by colour alone (WCAG 1.4.1).
      Anchor: { defaultProps: { underline: 'always' } },
    },
  });
  themes.set(accent, theme);
  return theme;
}

/** The scenario type colours (docs/scenario-format.md, "type"); any other type is grey. The type name is always written beside it. */
export const SCENARIO_TYPE_COLORS: Record<string, string> = {
  Ransomware: 'red',
  'Data Breach': 'blue',
  Hacktivism: 'yellow',
  'Insider Threat': 'green',
  Phishing: 'orange',
  'Foreign Adversary': 'grape',
};

export function scenarioTypeColor(type: string): string {
  return SCENARIO_TYPE_COLORS[type] ?? 'gray';
}
