import { Badge } from '@mantine/core';
import type { CSSProperties } from 'react';
import { scenarioTypeColor } from '../../../ui/theme';
import classes from './scenario-type.module.css';

/** CSS variables naming the type's colour shades, for the badge and the card accent. */
export function typeColorVars(type: string): CSSProperties {
  const color = scenarioTypeColor(type);
  return {
    '--type-color-2': `var(--mantine-color-${color}-2)`,
    '--type-color-6': `var(--mantine-color-${color}-6)`,
    '--type-color-9': `var(--mantine-color-${color}-9)`,
  } as CSSProperties;
}

export const typeCardClass = classes.card;

/** The scenario type in its colour; the colour is never the only signal, the type is always written. */
export function ScenarioTypeBadge({ type }: { type: string }) {
  return (
    <Badge className={classes.badge} style={typeColorVars(type)} radius="sm" size="md">
      {type}
    </Badge>
  );
}
