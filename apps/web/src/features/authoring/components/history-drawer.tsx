import { Anchor, Badge, Button, Drawer, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconDownload, IconRestore } from '@tabler/icons-react';
import { useVersions } from '../api/get-versions';
import { versionExportUrl, versionStixUrl } from '../api/get-version';
import type { VersionState, VersionSummary } from '../api/types';
import { LoadError } from '../../../ui/load-error';
import { formatDateTime } from '../../../lib/dates';

const STATE_LOOK: Record<VersionState, { label: string; color: string }> = {
  draft: { label: 'Draft', color: 'blue' },
  published: { label: 'Published (current)', color: 'green' },
  superseded: { label: 'Superseded', color: 'gray' },
};

const when = (iso: string | null) => (iso ? formatDateTime(iso) : null);

function VersionCard({
  scenarioId,
  version,
  busy,
  onRestore,
}: {
  scenarioId: string;
  version: VersionSummary;
  busy: boolean;
  onRestore: (number: number) => void;
}) {
  const look = STATE_LOOK[version.state];
  const saved = when(version.savedAt);
  const published = when(version.publishedAt);
  return (
    <Paper withBorder radius="md" p="sm" component="li" aria-label={`Version ${version.number}`}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700}>Version {version.number}</Text>
          <Badge variant="light" color={look.color}>
            {look.label}
          </Badge>
        </Group>
        <Text size="sm">{version.summary || 'No summary'}</Text>
        {version.createdBy && (
          <Text size="xs" c="dimmed">
            Started by {version.createdBy.name}
          </Text>
        )}
        {saved && (
          <Text size="xs" c="dimmed">
            Saved {saved}
            {version.savedBy ? ` by ${version.savedBy.name}` : ''}
            {version.state === 'draft' ? ` (revision ${version.revision})` : ''}
          </Text>
        )}
        {published && (
          <Text size="xs" c="dimmed">
            Published {published}
            {version.publishedBy ? ` by ${version.publishedBy.name}` : ''}
          </Text>
        )}
        <Group gap="xs" mt={4}>
          {version.state !== 'draft' && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconRestore size={14} aria-hidden />}
              loading={busy}
              onClick={() => onRestore(version.number)}
              aria-label={`Restore version ${version.number} as draft`}
            >
              Restore as draft
            </Button>
          )}
          <Anchor
            size="sm"
            href={versionExportUrl(scenarioId, version.number)}
            download
            aria-label={`Export version ${version.number} as YAML`}
          >
            <Group gap={4} component="span">
              <IconDownload size={14} aria-hidden />
              Export YAML
            </Group>
          </Anchor>
          {version.state !== 'draft' && (
            <Anchor
              size="sm"
              href={versionStixUrl(scenarioId, version.number)}
              download
              aria-label={`Export version ${version.number} as STIX 2.1`}
            >
              <Group gap={4} component="span">
                <IconDownload size={14} aria-hidden />
                Export as STIX 2.1
              </Group>
            </Anchor>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/** The scenario's versions, newest first: what changed, who and when; restore one as the draft, export it. */
export function HistoryDrawer({
  scenarioId,
  opened,
  busy,
  onClose,
  onRestore,
}: {
  scenarioId: string;
  opened: boolean;
  busy: boolean;
  onClose: () => void;
  onRestore: (number: number) => void;
}) {
  const versions = useVersions(opened ? scenarioId : null);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      title="Version history"
      closeButtonProps={{ 'aria-label': 'Close version history' }}
    >
      {versions.isPending ? (
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden />
          <Text size="sm">Loading versions…</Text>
        </Group>
      ) : versions.isError ? (
        <LoadError
          title="The versions could not be loaded"
          error={versions.error}
          onRetry={() => void versions.refetch()}
        />
      ) : (
        <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Versions">
          {versions.data.versions.map((version) => (
            <VersionCard
              key={version.number}
              scenarioId={scenarioId}
              version={version}
              busy={busy}
              onRestore={onRestore}
            />
          ))}
          {versions.data.versions.length === 0 && <Text size="sm">No versions yet.</Text>}
        </Stack>
      )}
    </Drawer>
  );
}
