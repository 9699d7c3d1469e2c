// The skill map's colour scale, shared by the matrix on screen and the Navigator layer file so both read
// the same: red (0 % correct) through amber (50 %) to green (100 %). Every colour keeps black text at
// 4.5:1 or more, and the percent is always written beside it (never colour alone).

export const SKILL_SCALE_COLORS = ['#f2545b', '#f5b440', '#3fbf6f'] as const;

/** Share of answers that were right, as a whole percent; null when there were no answers. */
export function sharePercent(correct: number, attempts: number): number | null {
  if (!Number.isFinite(attempts) || attempts <= 0) return null;
  return Math.min(100, Math.max(0, Math.round((correct * 100) / attempts)));
}

type Rgb = [number, number, number];

const toRgb = (hex: string): Rgb => {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
};

const toHex = (rgb: Rgb): string =>
  `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;

/** The colour of a share on the red→amber→green scale (0..100). */
export function skillColor(percent: number): string {
  const p = Math.min(100, Math.max(0, percent)) / 100;
  const [low, high, t] =
    p <= 0.5
      ? [SKILL_SCALE_COLORS[0], SKILL_SCALE_COLORS[1], p * 2]
      : [SKILL_SCALE_COLORS[1], SKILL_SCALE_COLORS[2], (p - 0.5) * 2];
  const a = toRgb(low);
  const b = toRgb(high);
  return toHex([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]);
}

/** The words for a share: "Strong", "Developing" or "Needs practice" (what the colour means). */
export function skillLevel(percent: number): 'Strong' | 'Developing' | 'Needs practice' {
  if (percent >= 70) return 'Strong';
  if (percent >= 40) return 'Developing';
  return 'Needs practice';
}
