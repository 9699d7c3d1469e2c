import { MAX_NOTES_CHARS, type RunNotes } from '@tradecraft/shared';
import { Button, Group, Text, Textarea } from '@mantine/core';
import { IconCheck, IconAlertCircle } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { formatTime } from '../../../../lib/dates';
import { useSaveRunNotes } from '../../api/save-run-notes';

// Notes are saved this long after the last keystroke, and at once when the notebook closes.
const SAVE_AFTER_MS = 800;

/**
 * The run's notebook: free notes kept on the server as they are typed, private to the trainee, kept through End and
 * Resume. A visible status says whether what is on screen is saved.
 */
export function Notebook({ runId, initial }: { runId: string; initial: RunNotes }) {
  const [text, setText] = useState(initial.text);
  const [savedText, setSavedText] = useState(initial.text);
  const [savedAt, setSavedAt] = useState(initial.updatedAt);
  const save = useSaveRunNotes(runId);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef({ text, savedText });
  latest.current = { text, savedText };
  const { mutate } = save;

  const saveNow = useCallback(() => {
    if (pending.current) clearTimeout(pending.current);
    pending.current = null;
    const { text: current, savedText: saved } = latest.current;
    if (current === saved) return;
    mutate(current, {
      onSuccess: (notes) => {
        setSavedText(notes.text);
        setSavedAt(notes.updatedAt);
      },
    });
  }, [mutate]);

  // Whatever is still unsaved when the notebook closes (the drawer shut, the run ended) is saved then.
  useEffect(() => () => saveNow(), [saveNow]);

  const change = (value: string) => {
    setText(value);
    if (pending.current) clearTimeout(pending.current);
    pending.current = setTimeout(saveNow, SAVE_AFTER_MS);
  };

  const dirty = text !== savedText;
  let status: ReactNode;
  if (save.isError && dirty) {
    status = (
      <Group gap={6} wrap="nowrap">
        <IconAlertCircle size={14} color="var(--mantine-color-red-text)" aria-hidden />
        <Text size="xs" c="red">
          Not saved: {save.error.message}
        </Text>
        <Button size="compact-xs" variant="default" onClick={saveNow}>
          Try again
        </Button>
      </Group>
    );
  } else if (dirty || save.isPending) {
    status = <Text size="xs">Saving...</Text>;
  } else if (savedAt) {
    status = (
      <Group gap={4} wrap="nowrap">
        <IconCheck size={14} color="var(--mantine-color-green-text)" aria-hidden />
        <Text size="xs">Saved at {formatTime(savedAt)}</Text>
      </Group>
    );
  } else {
    status = <Text size="xs">Nothing written yet.</Text>;
  }

  return (
    <Textarea
      label="Your notes"
      description="Private to you, saved as you type and kept with this run. They appear in your debrief and after-action report."
      placeholder="Hypotheses, indicators to block, questions for later..."
      autosize
      minRows={8}
      maxRows={24}
      maxLength={MAX_NOTES_CHARS}
      value={text}
      onChange={(event) => change(event.currentTarget.value)}
      onBlur={saveNow}
      styles={{ input: { fontSize: 'var(--mantine-font-size-sm)' } }}
      inputContainer={(children) => (
        <>
          {children}
          <Group justify="space-between" gap="xs" mt={6} wrap="wrap">
            <div role="status" aria-live="polite">
              {status}
            </div>
            <Text size="xs" c="dimmed" className="tabular-nums">
              {text.length.toLocaleString()} / {MAX_NOTES_CHARS.toLocaleString()}
            </Text>
          </Group>
        </>
      )}
    />
  );
}
