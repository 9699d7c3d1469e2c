import { MAX_SCENARIO_FILE_BYTES, SCENARIO_FILE_ACCEPT, UPLOAD_MESSAGES } from '@tradecraft/shared';
import { Alert, Anchor, Button, Card, Code, FileInput, Grid, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconChecklist, IconDownload, IconFileUpload, IconUpload } from '@tabler/icons-react';
import { useRef, useState, type DragEvent, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useCheckScenario } from '../api/check-scenario';
import { useUploadScenario } from '../api/upload-scenario';
import { CheckFindings } from '../components/check-findings';
import classes from './upload-page.module.css';
import { StixImportCard } from '../components/stix-import-card';
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
            Without an <Code>id</Code>, one is made from the name. A file with the id of an existing scenario becomes
            its draft, published from the editor.
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

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

export default function UploadPage() {
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  const [tooLarge, setTooLarge] = useState(false);
  const [dragging, setDragging] = useState(false);
  // dragenter and dragleave fire for every child crossed: count them to know when the file left the page.
  const dragDepth = useRef(0);
  const upload = useUploadScenario();
  const check = useCheckScenario();

  const choose = (next: File | null) => {
    setFile(next);
    setMissing(false);
    setTooLarge(false);
    upload.reset();
    check.reset();
  };

  /** The file to send, or null after saying why not (none chosen, over 1 MB). */
  const sendable = (): File | null => {
    upload.reset();
    check.reset();
    setTooLarge(false);
    if (!file) {
      setMissing(true);
      return null;
    }
    // The server refuses it too (413); saying so here spares sending a large file for nothing.
    if (file.size > MAX_SCENARIO_FILE_BYTES) {
      setTooLarge(true);
      return null;
    }
    return file;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = sendable();
    if (chosen) upload.mutate(chosen, { onSuccess: () => setFile(null) });
  };

  const checkOnly = () => {
    const chosen = sendable();
    if (chosen) check.mutate(chosen);
  };

  const dropHandlers = {
    onDragEnter: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      dragDepth.current += 1;
      setDragging(true);
    },
    onDragOver: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      dragDepth.current = Math.max(0, dragDepth.current - 1);
      if (dragDepth.current === 0) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      dragDepth.current = 0;
      setDragging(false);
      const dropped = event.dataTransfer.files[0];
      if (dropped) choose(dropped);
    },
  };

  const failure: Failure | null = tooLarge
    ? { problems: ['(file): is larger than 1 MB'] }
    : (upload.error ?? check.error)
      ? failureOf((upload.error ?? check.error)!)
      : null;

  return (
    <Stack
      gap="lg"
      {...dropHandlers}
      className={dragging ? classes.dropping : undefined}
      data-dropping={dragging || undefined}
    >
      <div>
        <Title order={1}>Upload Scenario</Title>
        <Text c="dimmed">
          Publish a scenario from a YAML or JSON file; it is checked whole and appears in the picker at once.
        </Text>
      </div>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <Card withBorder radius="md" padding="lg" className={classes.dropZone}>
              <form onSubmit={submit} noValidate>
                <Stack>
                  <FileInput
                    label="Scenario file"
                    description="YAML (.yaml, .yml) or JSON (.json), at most 1 MB; or drop the file anywhere on this page"
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
                  {dragging && (
                    <Text size="sm" fw={600} c="blue.8" role="status">
                      Drop the file to choose it.
                    </Text>
                  )}
                  <Group gap="sm">
                    <Button
                      type="submit"
                      leftSection={<IconUpload size={16} aria-hidden />}
                      loading={upload.isPending}
                      disabled={check.isPending}
                    >
                      Upload
                    </Button>
                    <Button
                      variant="default"
                      onClick={checkOnly}
                      leftSection={<IconChecklist size={16} aria-hidden />}
                      loading={check.isPending}
                      disabled={upload.isPending}
                    >
                      Check only
                    </Button>
                  </Group>
                  <Text size="xs" c="dimmed">
                    Check only lists what the checker finds (problems and warnings) without publishing anything.
                  </Text>
                </Stack>
              </form>
            </Card>
            {failure && <UploadFailed failure={failure} />}
            {check.data && <CheckFindings check={check.data} />}
            {upload.data && <UploadSummary upload={upload.data} />}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <FormatNote />
            <StixImportCard />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
