import { Paper, Stack, Text, Title } from '@mantine/core';
import { useRunNotes } from '../../api/get-run-notes';
import classes from './case-file.module.css';

/** The debrief's 'Your notes': the notebook the trainee kept during the run (theirs only; nothing when empty). */
export function RunNotesSection({ runId }: { runId: string }) {
  const notes = useRunNotes(runId);
  const text = notes.data?.text.trim() ? notes.data.text : null;
  if (!text) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="run-notes-heading">
      <Title order={2} size="h3" id="run-notes-heading">
        Your notes
      </Title>
      <Text size="sm" c="dimmed">
        Kept with this run and visible only to you.
      </Text>
      <Paper withBorder radius="md" p="md">
        <Text size="sm" className={classes.notes}>
          {text}
        </Text>
      </Paper>
    </Stack>
  );
}
