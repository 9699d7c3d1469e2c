import { STIX_FILE_ACCEPT, STIX_MESSAGES, type StixImportResponse } from '@tradecraft/shared';
import { Alert, Button, Card, Code, FileInput, List, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconArrowRight, IconFileImport } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useImportStixBundle } from '../api/import-stix';

function problemsOf(error: Error): string[] {
  return error instanceof ApiError ? (error.issues ?? []).map((issue) => issue.message) : [];
}

function ImportResult({ result }: { result: StixImportResponse }) {
  const { summary } = result;
  return (
    <Alert color="teal" role="status" title={`Draft "${result.name}" made from the bundle`}>
      <Stack gap="xs">
        <Text size="sm">
          {summary.source === 'attack-flow' ? 'From an Attack Flow: ' : 'From a threat report: '}
          {summary.steps} steps, {summary.artifacts} artifacts, techniques{' '}
          {summary.techniques.length > 0 ? summary.techniques.join(', ') : 'none'}. It is a draft: trainees see it once
          it is published.
        </Text>
        {summary.kept.length > 0 && (
          <>
            <Text size="sm" fw={600}>
              What the draft holds
            </Text>
            <List size="sm" spacing={2} aria-label="What the draft holds">
              {summary.kept.map((line, index) => (
                <List.Item key={index}>{line}</List.Item>
              ))}
            </List>
          </>
        )}
        {summary.notMapped.length > 0 && (
          <>
            <Text size="sm" fw={600}>
              Not carried over ({summary.notMapped.length})
            </Text>
            <List size="sm" spacing={2} aria-label="Not carried over">
              {summary.notMapped.map((line, index) => (
                <List.Item key={index}>{line}</List.Item>
              ))}
            </List>
          </>
        )}
        <Text size="sm" fw={600}>
          Before you publish
        </Text>
        <List size="sm" spacing={2} aria-label="Before you publish">
          {summary.toFinish.map((line, index) => (
            <List.Item key={index}>{line}</List.Item>
          ))}
        </List>
        <Button
          component={Link}
          to={paths.editScenario(result.id)}
          rightSection={<IconArrowRight size={16} aria-hidden />}
          w="fit-content"
        >
          Open the draft in the editor
        </Button>
      </Stack>
    </Alert>
  );
}

/** Upload Scenario's second way in: a STIX 2.1 bundle (a report or an Attack Flow) becomes a draft to finish. */
export function StixImportCard() {
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  const importing = useImportStixBundle();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setMissing(true);
      return;
    }
    setMissing(false);
    importing.mutate(file);
  };
  const problems = importing.error ? problemsOf(importing.error) : [];
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="stix-import-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="stix-import-title">
            Import from STIX 2.1
          </Title>
          <Text size="sm" c="dimmed">
            A threat report or an Attack Flow from your intelligence platform (OpenCTI, MISP) becomes a draft scenario:
            its attack patterns become steps, its indicators artifacts. JSON, at most 5 MB.
          </Text>
          <FileInput
            label="STIX bundle"
            placeholder="Choose a file"
            styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
            accept={STIX_FILE_ACCEPT}
            value={file}
            onChange={(chosen) => {
              setFile(chosen);
              importing.reset();
            }}
            error={missing ? STIX_MESSAGES.noFile : undefined}
            clearable
          />
          <Button
            type="submit"
            variant="default"
            loading={importing.isPending}
            leftSection={<IconFileImport size={18} aria-hidden />}
            w="fit-content"
          >
            Import as a draft
          </Button>
          {importing.error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert" title={importing.error.message}>
              {problems.length > 0 && (
                <List size="sm" spacing={2} aria-label="Problems in the bundle">
                  {problems.map((problem, index) => (
                    <List.Item key={index} style={{ wordBreak: 'break-word' }}>
                      <Code>{problem}</Code>
                    </List.Item>
                  ))}
                </List>
              )}
            </Alert>
          )}
          {importing.data && <ImportResult result={importing.data} />}
        </Stack>
      </form>
    </Card>
  );
}
