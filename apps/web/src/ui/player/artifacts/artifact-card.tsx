import type { ArtifactKind, PlayerArtifact } from '@tradecraft/shared';
import {
  Avatar,
  Badge,
  Box,
  Button,
  Collapse,
  Divider,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconBraces,
  IconCode,
  IconFileText,
  IconId,
  IconWorldWww,
  IconMail,
  IconMessageCircle,
  IconMessages,
  IconPaperclip,
  IconRss,
  IconTerminal2,
  type Icon,
} from '@tabler/icons-react';
import { useId, useState } from 'react';
import classes from '../player.module.css';
import { contentLines, parseChatLine, parseEmail } from './artifact-text';
import { parseDnsRecords, parseStix, parseWhois } from './intel-formats';
import { AdmiraltyBadge, TlpBanner } from './intel-markings';
import { focusableScroll } from '../../focusable-scroll';

const KINDS: Record<ArtifactKind, { label: string; icon: Icon }> = {
  email: { label: 'Email', icon: IconMail },
  log: { label: 'Log', icon: IconTerminal2 },
  'forum-post': { label: 'Forum post', icon: IconMessageCircle },
  feed: { label: 'Feed entry', icon: IconRss },
  report: { label: 'Report', icon: IconFileText },
  chat: { label: 'Chat', icon: IconMessages },
  other: { label: 'Intel', icon: IconPaperclip },
  dns: { label: 'Passive DNS', icon: IconWorldWww },
  whois: { label: 'WHOIS record', icon: IconId },
  stix: { label: 'STIX 2.1', icon: IconBraces },
};

/**
 * One piece of intel, drawn by its kind, under its TLP banner and with its Admiralty grade; every field is
 * scenario text and is rendered as text only. `toGrade` marks the artifact a grade-source step asks about.
 */
export function ArtifactCard({ artifact, toGrade = false }: { artifact: PlayerArtifact; toGrade?: boolean }) {
  const headingId = useId();
  const kind = KINDS[artifact.kind];
  // A forum post shows its handle and time in the post itself.
  const meta = artifact.kind === 'forum-post' ? [kind.label] : [kind.label, artifact.source, artifact.date];
  return (
    <Paper
      component="article"
      withBorder
      radius="md"
      aria-labelledby={headingId}
      style={{ overflow: 'hidden' }}
      className={toGrade ? classes.toGrade : undefined}
    >
      {artifact.tlp && <TlpBanner label={artifact.tlp} />}
      <Group className={classes.artifactHeader} gap="sm" wrap="nowrap" px="md" py="xs">
        <ThemeIcon variant="light" color="gray" size="lg" radius="md" aria-hidden>
          <kind.icon size={18} stroke={1.6} />
        </ThemeIcon>
        <Box miw={0} style={{ flex: 1 }}>
          <Title order={3} size="h5" id={headingId} style={{ overflowWrap: 'anywhere' }}>
            {artifact.title ?? kind.label}
          </Title>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {meta.filter(Boolean).join(' · ')}
          </Text>
        </Box>
        {(toGrade || artifact.admiralty) && (
          <Group gap={6} wrap="nowrap">
            {toGrade && (
              <Badge variant="filled" color="blue.8">
                To grade
              </Badge>
            )}
            {artifact.admiralty && <AdmiraltyBadge code={artifact.admiralty} />}
          </Group>
        )}
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
    case 'dns':
      return <DnsBody content={artifact.content} />;
    case 'whois':
      return <WhoisBody content={artifact.content} />;
    case 'stix':
      return <StixBody content={artifact.content} />;
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

function DnsBody({ content }: { content: string }) {
  const table = parseDnsRecords(content);
  if (!table) return <LogBody content={content} />;
  return (
    <Table.ScrollContainer
      minWidth={table.columns.length * 110}
      scrollAreaProps={focusableScroll('Passive DNS records')}
    >
      <Table fz="sm" verticalSpacing={4} horizontalSpacing="xs" striped>
        <Table.Caption style={{ captionSide: 'top', textAlign: 'left', marginTop: 0 }}>
          Passive DNS records
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {table.columns.map((column, index) => (
              <Table.Th scope="col" key={index} style={{ whiteSpace: 'nowrap' }}>
                {column}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {table.rows.map((row, rowIndex) => (
            <Table.Tr key={rowIndex}>
              {row.map((cell, index) => (
                <Table.Td key={index} className={classes.monoCell}>
                  {cell}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function WhoisBody({ content }: { content: string }) {
  const lines = parseWhois(content);
  if (!lines.some((line) => line.name)) return <LogBody content={content} />;
  return (
    <dl className={`${classes.emailHeaders} ${classes.whois}`}>
      {lines.map((line, index) =>
        line.name ? (
          <Box key={index} display="contents">
            <dt>{line.name}</dt>
            <dd>{line.value || '-'}</dd>
          </Box>
        ) : (
          <Box key={index} display="contents">
            <dt>Remark</dt>
            <dd>{line.value}</dd>
          </Box>
        ),
      )}
    </dl>
  );
}

function StixBody({ content }: { content: string }) {
  const [raw, setRaw] = useState(false);
  const rawId = useId();
  const view = parseStix(content);
  let pretty = content;
  try {
    pretty = JSON.stringify(JSON.parse(content), null, 2);
  } catch {
    /* not JSON: shown as written */
  }
  return (
    <Stack gap="sm">
      {view ? (
        view.groups.map((group) => (
          <Stack key={group.type} gap={6} component="section" aria-label={`STIX ${group.type} objects`}>
            <Text size="xs" fw={700} tt="uppercase">
              {group.type} ({group.objects.length})
            </Text>
            {group.objects.map((object, index) => (
              <Box key={object.id || index} className={classes.stixObject}>
                <Text size="sm" fw={600} className={classes.preWrap}>
                  {object.title}
                </Text>
                {object.fields.length > 0 && (
                  <dl className={classes.emailHeaders}>
                    {object.fields.map((field) => (
                      <Box key={field.name} display="contents">
                        <dt>{field.name.replace(/_/g, ' ')}</dt>
                        <dd className={classes.preWrap}>{field.value}</dd>
                      </Box>
                    ))}
                  </dl>
                )}
                {object.id && (
                  <Text size="xs" c="dimmed" className={classes.mono}>
                    {object.id}
                  </Text>
                )}
              </Box>
            ))}
          </Stack>
        ))
      ) : (
        <Text size="sm" c="dimmed">
          This STIX content could not be read as JSON; it is shown as written.
        </Text>
      )}
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconCode size={16} aria-hidden />}
        aria-expanded={raw || !view}
        aria-controls={rawId}
        onClick={() => setRaw((shown) => !shown)}
        style={{ alignSelf: 'flex-start' }}
        disabled={!view}
      >
        {raw ? 'Hide raw JSON' : 'Show raw JSON'}
      </Button>
      <Collapse expanded={raw || !view} id={rawId}>
        <Box component="pre" className={classes.log}>
          <code>{pretty}</code>
        </Box>
      </Collapse>
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
