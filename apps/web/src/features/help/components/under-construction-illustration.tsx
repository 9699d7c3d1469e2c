import { Box, type BoxProps } from '@mantine/core';
import { useId } from 'react';

// The crane mast's zigzag bracing, from the ground up.
const MAST_LATTICE = Array.from({ length: 17 }, (_, i) => `${i % 2 === 0 ? 52 : 66},${262 - i * 13.75}`).join(' ');

/**
 * Our own drawing: a striped road barrier between two traffic cones, a crane lowering a panel of the admin
 * screen into place. Colours come from the theme, so it follows the accent and the colour scheme.
 */
export function UnderConstructionIllustration(props: BoxProps) {
  const id = useId();
  const titleId = `${id}-title`;
  const stripes = `${id}-stripes`;
  return (
    <Box {...props}>
      <svg viewBox="0 0 480 300" width="100%" role="img" aria-labelledby={titleId} style={{ display: 'block' }}>
        <title id={titleId}>
          Under construction: a crane lowers a new panel onto the admin screen behind a striped barrier and two traffic
          cones.
        </title>
        <defs>
          <pattern id={stripes} width="28" height="28" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="28" height="28" fill="var(--mantine-color-yellow-4)" />
            <rect width="14" height="28" fill="var(--mantine-color-dark-7)" />
          </pattern>
        </defs>

        {/* ground */}
        <rect x="0" y="262" width="480" height="38" rx="6" fill="var(--mantine-color-default-border)" opacity="0.5" />

        {/* the admin screen being built */}
        <rect
          x="150"
          y="70"
          width="210"
          height="150"
          rx="10"
          fill="var(--mantine-color-body)"
          stroke="var(--mantine-color-dimmed)"
          strokeWidth="3"
        />
        <rect x="150" y="70" width="210" height="22" rx="10" fill="var(--mantine-color-accent-filled)" />
        <rect x="150" y="82" width="210" height="10" fill="var(--mantine-color-accent-filled)" />
        <rect x="166" y="106" width="52" height="98" rx="4" fill="var(--mantine-color-default-border)" />
        <rect x="230" y="106" width="114" height="14" rx="4" fill="var(--mantine-color-default-border)" />
        <rect x="230" y="128" width="84" height="14" rx="4" fill="var(--mantine-color-default-border)" />
        <rect
          x="230"
          y="150"
          width="114"
          height="54"
          rx="4"
          fill="none"
          stroke="var(--mantine-color-accent-filled)"
          strokeWidth="3"
          strokeDasharray="8 6"
        />

        {/* crane */}
        <rect
          x="52"
          y="40"
          width="14"
          height="222"
          fill="none"
          stroke="var(--mantine-color-yellow-6)"
          strokeWidth="3"
        />
        <polyline points={MAST_LATTICE} fill="none" stroke="var(--mantine-color-yellow-6)" strokeWidth="2" />
        <rect x="40" y="30" width="270" height="12" rx="3" fill="var(--mantine-color-yellow-6)" />
        <rect x="28" y="30" width="26" height="22" rx="3" fill="var(--mantine-color-dark-4)" />
        <line x1="287" y1="42" x2="287" y2="120" stroke="var(--mantine-color-dimmed)" strokeWidth="2" />
        <path d="M279 120 h16 v6 a8 8 0 0 1 -16 0 z" fill="var(--mantine-color-dimmed)" />
        {/* the panel on the hook */}
        <rect
          x="246"
          y="132"
          width="82"
          height="10"
          rx="2"
          fill="var(--mantine-color-dimmed)"
          transform="rotate(-4 287 137)"
        />

        {/* barrier */}
        <rect x="110" y="214" width="8" height="48" fill="var(--mantine-color-dimmed)" />
        <rect x="392" y="214" width="8" height="48" fill="var(--mantine-color-dimmed)" />
        <rect
          x="96"
          y="196"
          width="318"
          height="30"
          rx="5"
          fill={`url(#${stripes})`}
          stroke="var(--mantine-color-dark-7)"
          strokeWidth="2"
        />

        {/* cones */}
        {[34, 430].map((x) => (
          <g key={x}>
            <path d={`M${x} 262 L${x + 12} 206 h12 L${x + 36} 262 z`} fill="var(--mantine-color-orange-6)" />
            <path d={`M${x + 7} 236 h22 l2 9 h-26 z`} fill="var(--mantine-color-white)" />
            <rect x={x - 6} y="258" width="48" height="8" rx="2" fill="var(--mantine-color-orange-8)" />
          </g>
        ))}
      </svg>
    </Box>
  );
}
