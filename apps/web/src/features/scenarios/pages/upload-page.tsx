import { MAX_SCENARIO_FILE_BYTES, SCENARIO_FILE_ACCEPT, UPLOAD_MESSAGES } from '@tradecraft/shared';
import { Alert, Anchor, Button, Card, Code, FileInput, Grid, List, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconDownload, IconFileUpload, IconUpload } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useUploadScenario } from '../api/upload-scenario';
import { UploadSummary } from '../components/upload-summary';

interface Failure {
  problems: string[];
  /** Shown when there is no problem list (for example the server cannot be reached). */
  reason?: string;
}

function failureOf(error: Error): Failure {
  if (error instanceof ApiError && error.issues && error.issues.length > 0) {
    return { problems: error.issues.map((issue) => `${issue.path}: ${issue.message}`) };
  }
  return { problems: [], ...(error.message !== UPLOAD_MESSAGES.failed ? { reason: error.message } : {}) };
}

function UploadFailed({ failure }: { failure: Failure }) {
  return (
    <Alert color="red" icon={<IconAlertCircle />} role="alert" title={UPLOAD_MESSAGES.failed}>
      {failure.reason && <Text size="sm">{failure.reason}</Text>}
      {failure.problems.length > 0 && (
        <Stack gap={4}>
          <Text size="sm">
            {failure.problems.length === 1
              ? 'The file has 1 problem:'
              : `The file has ${failure.problems.length} problems:`}
          </Text>
          <List size="sm" spacing={2} aria-label="Problems in the file">
            {failure.problems.map((problem, index) => (
              <List.Item key={index} style={{ wordBreak: 'break-word' }}>
                <Code>{problem}</Code>
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
    </Alert>
  );
}

function FormatNote() {
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="xs">
        <Title order={2} size="h4">
          The scenario file
        </Title>
        <Text size="sm">One scenario per file, written as YAML or JSON, at most 1 MB.</Text>
        <List size="sm" spacing={4}>
          <List.Item>
            Required: <Code>name</Code>, <Code>type</Code>, <Code>difficulty</Code> (1 to 5), <Code>description</Code>{' '}
            and <Code>steps</Code>.
          </List.Item>
          <List.Item>
            Each step: <Code>id</Code>, <Code>title</Code>, <Code>description</Code>, 2 to 6 <Code>options</Code> and{' '}
            <Code>correct_option</Code> (counting from 0); optionally <Code>artifacts</Code>, <Code>hint</Code> and an
            ATT&CK technique id in <Code>mitre_attack</Code>.
          </List.Item>
          <List.Item>
            An option&apos;s <Code>next_step</Code> names the step it leads to; <Code>null</Code> means Retry; without
            it, the next step in the file follows.
          </List.Item>
          <List.Item>
            Without an <Code>id</Code>, one is made from the name; an id already in use is refused.
          </List.Item>
        </List>
        <Anchor href="/scenario-example.yaml" download="scenario-example.yaml" size="sm" mt={4}>
          <IconDownload size={14} aria-hidden style={{ verticalAlign: 'text-bottom', marginRight: 4 }} />
          Download an example file
        </Anchor>
      </Stack>
    </Card>
  );
}

export default function UploadPage() {
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  const [tooLarge, setTooLarge] = useState(false);
  const upload = useUploadScenario();

  const choose = (next: File | null) => {
    setFile(next);
    setMissing(false);
    setTooLarge(false);
    upload.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    upload.reset();
    if (!file) {
      setMissing(true);
      return;
    }
    // The server refuses it too (413); saying so here spares sending a large file for nothing.
    if (file.size > MAX_SCENARIO_FILE_BYTES) {
      setTooLarge(true);
      return;
    }
    upload.mutate(file, { onSuccess: () => setFile(null) });
  };

  const failure: Failure | null = tooLarge
    ? { problems: ['(file): is larger than 1 MB'] }
    : upload.error
      ? failureOf(upload.error)
      : null;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Upload Scenario</Title>
        <Text c="dimmed">
          Publish a scenario from a YAML or JSON file; it is checked whole and appears in the picker at once.
        </Text>
      </div>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <Card withBorder radius="md" padding="lg">
              <form onSubmit={submit} noValidate>
                <Stack>
                  <FileInput
                    label="Scenario file"
                    description="YAML (.yaml, .yml) or JSON (.json), at most 1 MB"
                    placeholder="Choose a file"
                    styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
                    accept={SCENARIO_FILE_ACCEPT}
                    value={file}
                    onChange={choose}
                    clearable
                    clearButtonProps={{ 'aria-label': 'Clear the chosen file' }}
                    leftSection={<IconFileUpload size={18} aria-hidden />}
                    error={missing ? UPLOAD_MESSAGES.noFile : undefined}
                  />
                  <Button
                    type="submit"
                    leftSection={<IconUpload size={16} aria-hidden />}
                    loading={upload.isPending}
                    style={{ alignSelf: 'flex-start' }}
                  >
                    Upload
                  </Button>
                </Stack>
              </form>
            </Card>
            {failure && <UploadFailed failure={failure} />}
            {upload.data && <UploadSummary upload={upload.data} />}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <FormatNote />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
