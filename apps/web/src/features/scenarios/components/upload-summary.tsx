import type { UploadScenarioResponse } from '@tradecraft/shared';
import { Anchor, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconPencil, IconPlayerPlay } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { ScenarioTypeBadge } from './scenario-type';
import { formatDateTime } from '../../../lib/dates';

const ROW_HEADER_WIDTH = 130;

/** The Upload Summary (filename, size in bytes, upload_time), and the scenario it published. */
export function UploadSummary({ upload }: { upload: UploadScenarioResponse }) {
  const { scenario } = upload;
  return (
    <Card withBorder radius="md" padding="lg" role="status" aria-labelledby="upload-summary-title">
      <Stack gap="md">
        <Group gap="xs">
          <IconCircleCheck size={22} color="var(--mantine-color-green-7)" aria-hidden />
          <Title order={2} size="h3" id="upload-summary-title">
            Upload Summary
          </Title>
        </Group>
        <Table variant="vertical" withTableBorder layout="fixed">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={ROW_HEADER_WIDTH}>Filename</Table.Th>
              <Table.Td style={{ wordBreak: 'break-all' }}>{upload.filename}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th w={ROW_HEADER_WIDTH}>Size</Table.Th>
              <Table.Td className="tabular-nums">{upload.size.toLocaleString()} bytes</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th w={ROW_HEADER_WIDTH}>Upload time</Table.Th>
              <Table.Td>
                <time dateTime={upload.upload_time}>{formatDateTime(upload.upload_time)}</time>
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th w={ROW_HEADER_WIDTH}>Scenario</Table.Th>
              <Table.Td>
                <Stack gap={4}>
                  <Text fw={600}>{scenario.name}</Text>
                  <Group gap="xs">
                    <ScenarioTypeBadge type={scenario.type} />
                    <Text size="sm" className="tabular-nums">
                      Difficulty {scenario.difficulty}/5 · {scenario.stepCount} steps
                    </Text>
                  </Group>
                </Stack>
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        {upload.draft ? (
          <Stack gap="xs">
            <Text size="sm">
              A scenario with this id exists, so the file became its draft (version {upload.number}). Trainees keep
              playing the published version, and runs in progress keep theirs, until you publish the draft.
            </Text>
            <Button
              component={Link}
              to={paths.editScenario(scenario.id)}
              leftSection={<IconPencil size={16} aria-hidden />}
              w="fit-content"
            >
              Review and publish the draft
            </Button>
          </Stack>
        ) : (
          <Group gap="md">
            <Button
              component={Link}
              to={paths.simulation(scenario.id)}
              leftSection={<IconPlayerPlay size={16} aria-hidden />}
            >
              Open the new scenario
            </Button>
            <Anchor component={Link} to={paths.scenarios}>
              See it in Select a Scenario
            </Anchor>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
