import type { ArtifactKind, PlayerArtifact } from '@tradecraft/shared';
import { Avatar, Box, Divider, Group, Paper, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconFileText,
  IconMail,
  IconMessageCircle,
  IconMessages,
  IconPaperclip,
  IconRss,
  IconTerminal2,
  type Icon,
} from '@tabler/icons-react';
import { useId } from 'react';
import classes from '../runs.module.css';
import { contentLines, parseChatLine, parseEmail } from './artifact-text';

const KINDS: Record<ArtifactKind, { label: string; icon: Icon }> = {
  email: { label: 'Email', icon: IconMail },
  log: { label: 'Log', icon: IconTerminal2 },
  'forum-post': { label: 'Forum post', icon: IconMessageCircle },
  feed: { label: 'Feed entry', icon: IconRss },
  report: { label: 'Report', icon: IconFileText },
  chat: { label: 'Chat', icon: IconMessages },
  other: { label: 'Intel', icon: IconPaperclip },
  dns: { label: 'Passive DNS', icon: IconTerminal2 },
  whois: { label: 'WHOIS', icon: IconFileText },
  stix: { label: 'STIX', icon: IconFileText },
};

/** One piece of intel, drawn by its kind; every field is scenario text and is rendered as text only. */
export function ArtifactCard({ artifact }: { artifact: PlayerArtifact }) {
  const headingId = useId();
  const kind = KINDS[artifact.kind];
  // A forum post shows its handle and time in the post itself.
  const meta = artifact.kind === 'forum-post' ? [kind.label] : [kind.label, artifact.source, artifact.date];
  return (
    <Paper component="article" withBorder radius="md" aria-labelledby={headingId} style={{ overflow: 'hidden' }}>
      <Group className={classes.artifactHeader} gap="sm" wrap="nowrap" px="md" py="xs">
        <ThemeIcon variant="light" color="gray" size="lg" radius="md" aria-hidden>
          <kind.icon size={18} stroke={1.6} />
        </ThemeIcon>
        <Box miw={0}>
          <Title order={3} size="h5" id={headingId} style={{ overflowWrap: 'anywhere' }}>
            {artifact.title ?? kind.label}
          </Title>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {meta.filter(Boolean).join(' · ')}
          </Text>
        </Box>
      </Group>
      <Stack p="md" gap="sm">
        <ArtifactBody artifact={artifact} />
        {artifact.indicators && artifact.indicators.length > 0 && <IndicatorTable indicators={artifact.indicators} />}
      </Stack>
    </Paper>
  );
}

function ArtifactBody({ artifact }: { artifact: PlayerArtifact }) {
  switch (artifact.kind) {
    case 'email':
      return <EmailBody content={artifact.content} />;
    case 'log':
      return <LogBody content={artifact.content} />;
    case 'forum-post':
      return <ForumPostBody artifact={artifact} />;
    case 'chat':
      return <ChatBody content={artifact.content} />;
    case 'report':
      return (
        <Text size="sm" className={`${classes.preWrap} ${classes.report}`}>
          {artifact.content.trimEnd()}
        </Text>
      );
    default:
      return (
        <Text size="sm" className={classes.preWrap}>
          {artifact.content.trimEnd()}
        </Text>
      );
  }
}

function EmailBody({ content }: { content: string }) {
  const { headers, body } = parseEmail(content);
  return (
    <Stack gap="sm">
      {headers.length > 0 && (
        <>
          <dl className={classes.emailHeaders}>
            {headers.map((header, index) => (
              <Box key={index} display="contents">
                <dt>{header.name}</dt>
                <dd style={header.name === 'Subject' ? { fontWeight: 600 } : undefined}>{header.value}</dd>
              </Box>
            ))}
          </dl>
          <Divider />
        </>
      )}
      {body && (
        <Text size="sm" className={classes.preWrap}>
          {body}
        </Text>
      )}
    </Stack>
  );
}

function LogBody({ content }: { content: string }) {
  return (
    <Box component="pre" className={classes.log}>
      <code>
        {contentLines(content).map((line, index) => (
          <span key={index} className={classes.logLine}>
            {line || ' '}
          </span>
        ))}
      </code>
    </Box>
  );
}

function ForumPostBody({ artifact }: { artifact: PlayerArtifact }) {
  const handle = artifact.source ?? 'Anonymous';
  return (
    <Group align="flex-start" wrap="nowrap" gap="sm">
      <Avatar name={handle} radius="xl" size="md" aria-hidden />
      <Stack gap={4} miw={0}>
        <Group gap="xs" wrap="wrap" align="baseline">
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {handle}
          </Text>
          {artifact.date && (
            <Text size="xs" c="dimmed">
              {artifact.date}
            </Text>
          )}
        </Group>
        <Text size="sm" className={classes.preWrap}>
          {artifact.content.trimEnd()}
        </Text>
      </Stack>
    </Group>
  );
}

function ChatBody({ content }: { content: string }) {
  return (
    <Stack component="ul" gap={6} className={classes.plainList}>
      {contentLines(content).map((raw, index) => {
        const line = parseChatLine(raw);
        return (
          <li key={index}>
            <Text size="sm" className={classes.preWrap}>
              {line.time && (
                <Text span size="xs" c="dimmed" ff="monospace" mr={6}>
                  {line.time}
                </Text>
              )}
              {line.speaker && (
                <Text span fw={600} mr={6}>
                  {line.speaker}:
                </Text>
              )}
              {line.text}
            </Text>
          </li>
        );
      })}
    </Stack>
  );
}

function IndicatorTable({ indicators }: { indicators: NonNullable<PlayerArtifact['indicators']> }) {
  return (
    <>
      <Table fz="sm" verticalSpacing={6} horizontalSpacing="xs" highlightOnHover={false} visibleFrom="xs">
        <Table.Caption style={{ captionSide: 'top', textAlign: 'left', marginTop: 0 }}>Indicators</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Type</Table.Th>
            <Table.Th scope="col">Value</Table.Th>
            <Table.Th scope="col">Context</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {indicators.map((indicator, index) => (
            <Table.Tr key={index}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{indicator.type}</Table.Td>
              <Table.Td className={classes.mono}>{indicator.value}</Table.Td>
              <Table.Td>{indicator.context ?? '-'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {/* Below 576 px the same indicators as one block each: three columns would break every value. */}
      <Box hiddenFrom="xs">
        <Text size="sm" c="dimmed" mb={4}>
          Indicators
        </Text>
        <ul className={classes.indicatorList}>
          {indicators.map((indicator, index) => (
            <Box component="li" key={index} py={6}>
              <Text size="xs" fw={700} tt="uppercase">
                {indicator.type}
              </Text>
              <Text size="sm" className={classes.mono}>
                {indicator.value}
              </Text>
              {indicator.context && (
                <Text size="xs" c="dimmed">
                  {indicator.context}
                </Text>
              )}
            </Box>
          ))}
        </ul>
      </Box>
    </>
  );
}
