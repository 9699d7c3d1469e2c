import {
  CREDIBILITY_LABELS,
  RELIABILITY_LABELS,
  type CredibilityGrade,
  type ReliabilityGrade,
  type TlpLabel,
} from '@tradecraft/shared';
import { Box, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import classes from '../player.module.css';

// TLP 2.0 (FIRST): each label in its standard colour on black; every pair is above 4.5:1.
const TLP: Record<TlpLabel, { colour: string; meaning: string }> = {
  RED: { colour: '#FF2B2B', meaning: 'For the eyes and ears of individual recipients only, no further disclosure.' },
  'AMBER+STRICT': {
    colour: '#FFC000',
    meaning: "Limited disclosure, restricted to the recipient's organisation only.",
  },
  AMBER: {
    colour: '#FFC000',
    meaning: "Limited disclosure, restricted to the recipient's organisation and its clients on a need-to-know basis.",
  },
  GREEN: { colour: '#33FF00', meaning: 'Limited disclosure, restricted to the community.' },
  CLEAR: { colour: '#FFFFFF', meaning: 'Disclosure is not limited.' },
};

/** The TLP 2.0 banner an artifact was shared under: the label in its colour on black, and what it allows. */
export function TlpBanner({ label }: { label: TlpLabel }) {
  const { colour, meaning } = TLP[label];
  return (
    <Box className={classes.tlpBanner} data-tlp={label}>
      <Text span fw={700} ff="monospace" style={{ color: colour }} className={classes.tlpLabel}>
        TLP:{label}
      </Text>
      <Text span size="xs" className={classes.tlpMeaning}>
        {meaning}
      </Text>
    </Box>
  );
}

/** What an Admiralty code such as B2 means, in words; null for a code that is not one. */
export function admiraltyMeaning(code: string): string | null {
  const match = /^([A-F])([1-6])$/.exec(code);
  if (!match) return null;
  const reliability = match[1] as ReliabilityGrade;
  const credibility = Number(match[2]) as CredibilityGrade;
  return `Source ${reliability}: ${RELIABILITY_LABELS[reliability].toLowerCase()}; information ${credibility}: ${CREDIBILITY_LABELS[credibility].toLowerCase()}`;
}

/** The Admiralty grade an artifact came with, as a badge; the meaning is one hover or focus away. */
export function AdmiraltyBadge({ code }: { code: string }) {
  const meaning = admiraltyMeaning(code);
  return (
    <Tooltip label={meaning ?? code} events={{ hover: true, focus: true, touch: true }} withArrow multiline maw={280}>
      <span className={classes.admiraltyBadge} tabIndex={0}>
        <VisuallyHidden>Admiralty grade </VisuallyHidden>
        {code}
        {meaning && <VisuallyHidden>: {meaning}</VisuallyHidden>}
      </span>
    </Tooltip>
  );
}
