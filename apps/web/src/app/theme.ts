import { createTheme, type MantineColorsTuple, type MantineThemeOverride } from '@mantine/core';

export const ACCENTS = { cyan: '#00ffff', teal: '#0dffc9', purple: '#bf00ff' } as const;
export type Accent = keyof typeof ACCENTS;
export const ACCENT_ORDER: Accent[] = ['cyan', 'teal', 'purple'];

export function isAccent(value: unknown): value is Accent {
  return typeof value === 'string' && value in ACCENTS;
}

function parseHex(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

function mix(color: [number, number, number], target: number, amount: number): string {
  return toHex(color.map((channel) => channel + (target - channel) * amount) as [number, number, number]);
}

/**
 * Ten shades around the raw accent (shade 5). The raw accents are far too light for text on white, so light
 * mode uses the dark shades for text and fills; dark mode uses the light ones. See primaryShade below.
 */
export function accentPalette(accent: Accent): MantineColorsTuple {
  const base = parseHex(ACCENTS[accent]);
  return [
    mix(base, 255, 0.9),
    mix(base, 255, 0.75),
    mix(base, 255, 0.55),
    mix(base, 255, 0.35),
    mix(base, 255, 0.15),
    ACCENTS[accent],
    mix(base, 0, 0.25),
    mix(base, 0, 0.42),
    mix(base, 0, 0.55),
    mix(base, 0, 0.68),
  ];
}

const themes = new Map<Accent, MantineThemeOverride>();

/** The product's theme for an accent (built once per accent, so providers keep a stable object). */
export function buildTheme(accent: Accent): MantineThemeOverride {
  const cached = themes.get(accent);
  if (cached) return cached;
  const theme = createTheme({
    primaryColor: 'accent',
    colors: { accent: accentPalette(accent) },
    primaryShade: { light: 8, dark: 4 },
    // Filled accent buttons pick dark or light text by luminance; 0.18 is where both contrasts are equal.
    autoContrast: true,
    luminanceThreshold: 0.18,
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    fontFamilyMonospace: 'ui-monospace, "JetBrains Mono", "SFMono-Regular", Menlo, Consolas, monospace',
    headings: { fontWeight: '650' },
    defaultRadius: 'md',
    cursorType: 'pointer',
    focusRing: 'auto',
    // SPEC.md's mobile breakpoint is 640 px: 'sm' is where the sidebar opens.
    breakpoints: { xs: '36em', sm: '40em', md: '62em', lg: '75em', xl: '88em' },
    components: {
      Table: { defaultProps: { highlightOnHover: true } },
    },
  });
  themes.set(accent, theme);
  return theme;
}

/** SPEC.md's scenario type colours; any other type is grey. The type name is always written beside it. */
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
