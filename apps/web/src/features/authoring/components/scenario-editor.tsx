import type { StepKind } from '@tradecraft/shared';
import { Alert, Badge, Button, Group, Menu, Modal, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconAlertCircle,
  IconCopy,
  IconDeviceFloppy,
  IconDownload,
  IconHistory,
  IconPlayerPlay,
  IconUpload,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useBlocker, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { createDraft } from '../api/create-draft';
import { duplicateScenario } from '../api/duplicate-scenario';
import { publishDraft } from '../api/publish-draft';
import { restoreVersion } from '../api/restore-version';
import { saveDraft } from '../api/save-draft';
import type { ScenarioVersion } from '../api/types';
import { scenarioVersionsKey } from '../api/versions-keys';
import { downloadScenario } from '../lib/download';
import {
  addStep,
  deleteStep,
  duplicateStep,
  moveStep,
  toDefinition,
  toDraft,
  updateScenario,
  updateStep,
  type DraftScenario,
  type DraftStep,
} from '../lib/draft';
import { fieldCandidates, problemPlace, problemsOfStep, scenarioProblems } from '../lib/problems';
import classes from './editor.module.css';
import { HistoryDrawer } from './history-drawer';
import { PreviewModal } from './preview-modal';
import { ProblemsPanel } from './problems-panel';
import { ScenarioForm } from './scenario-form';
import { ScenarioGraph } from './scenario-graph';
import { StepForm } from './step-form';
import { StepToolbar } from './step-toolbar';
import { useCheckedDraft } from './use-checked-draft';

export interface EditorStart {
  /** null: a new scenario, not yet on the server. */
  scenarioId: string | null;
  definition: unknown;
  /** The draft's revision a save must name; null when a save creates the draft. */
  revision: number | null;
  /** The version the editor shows: the draft's number, or the published version it starts from. */
  versionNumber: number | null;
  hasDraft: boolean;
}

type Tab = 'step' | 'scenario';

// The editor's confirmations appear at the bottom, clear of its action bar (the app's notices sit at the top, where
// they would cover Save, Publish and History while the pointer rests on them).
const EDITOR_NOTICES = 'bottom-right' as const;

const definitionText = (draft: DraftScenario) => JSON.stringify(toDefinition(draft));

/** Finds the control of a field path inside `container`, trying the closest enclosing path when it has none. */
function focusField(container: HTMLElement | null, field: string) {
  if (!container) return;
  const elements = [...container.querySelectorAll<HTMLElement>('[data-field]')];
  for (const candidate of fieldCandidates(field)) {
    const element = elements.find((node) => node.getAttribute('data-field') === candidate);
    if (element) {
      element.scrollIntoView({ block: 'center' });
      element.focus({ preventScroll: true });
      return;
    }
  }
}

export function ScenarioEditor({ start }: { start: EditorStart }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<DraftScenario>(() => toDraft(start.definition));
  const [savedText, setSavedText] = useState(() => definitionText(toDraft(start.definition)));
  const [revision, setRevision] = useState(start.revision);
  const [hasDraft, setHasDraft] = useState(start.hasDraft);
  const [selected, setSelected] = useState<number | null>(draft.steps.length > 0 ? 0 : null);
  const [tab, setTab] = useState<Tab>('step');
  const [focusRequest, setFocusRequest] = useState<{ field: string; nonce: number } | null>(null);
  const [busy, setBusy] = useState<null | 'save' | 'publish' | 'duplicate' | 'restore'>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [previewOpen, setPreviewOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const formRef = useRef<HTMLDivElement>(null);

  const checked = useCheckedDraft(draft);
  const dirty = useMemo(() => definitionText(draft) !== savedText, [draft, savedText]);
  const isNew = start.scenarioId === null;
  const scenarioId = start.scenarioId;
  // The history follows every save; the editor keeps its own copy of the draft (no reload under the author).
  const refreshVersions = () =>
    scenarioId === null
      ? Promise.resolve()
      : queryClient.invalidateQueries({ queryKey: [...scenarioVersionsKey(scenarioId), 'versions'] });

  // Leaving with unsaved changes asks first (in the app and when closing the tab).
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && busy === null && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const selectStep = useCallback((index: number) => {
    setSelected(index);
    setTab('step');
  }, []);
  const editStep = useCallback((index: number, patch: Partial<DraftStep>) => {
    setDraft((current) => updateStep(current, index, patch));
  }, []);
  const editScenario = useCallback((patch: Partial<DraftScenario>) => {
    setDraft((current) => updateScenario(current, patch));
  }, []);

  /** A way drawn in the graph: a non-choice step's way on, or the first choice option without a way of its own. */
  const connect = useCallback((sourceIndex: number, targetIndex: number) => {
    setDraft((current) => {
      const source = current.steps[sourceIndex];
      const target = current.steps[targetIndex];
      if (!source || !target || target.id === '') return current;
      if (source.kind !== 'choice') return updateStep(current, sourceIndex, { next_step: target.id });
      const options = source.options ?? [];
      let optionIndex = options.findIndex((option) => option.next_step === undefined);
      if (optionIndex < 0) optionIndex = options.length - 1;
      if (optionIndex < 0) return current;
      return updateStep(current, sourceIndex, {
        options: options.map((option, i) => (i === optionIndex ? { ...option, next_step: target.id } : option)),
      });
    });
    setSelected(sourceIndex);
    setTab('step');
  }, []);

  const pickProblem = useCallback((path: string) => {
    const place = problemPlace(path);
    if (place.stepIndex !== null) {
      setSelected(place.stepIndex);
      setTab('step');
    } else {
      setTab(place.field === 'steps' ? 'step' : 'scenario');
    }
    setFocusRequest({
      field: place.stepIndex === null && place.field === 'steps' ? '' : place.field,
      nonce: Date.now(),
    });
  }, []);

  useLayoutEffect(() => {
    if (focusRequest) focusField(formRef.current, focusRequest.field);
  }, [focusRequest]);

  const loadVersion = (version: ScenarioVersion) => {
    const next = toDraft(version.definition);
    setDraft(next);
    setSavedText(definitionText(next));
    setRevision(version.state === 'draft' ? version.revision : null);
    setHasDraft(version.state === 'draft');
    setSelected(next.steps.length > 0 ? 0 : null);
    setConflict(null);
  };

  const failed = (cause: unknown) => {
    if (cause instanceof ApiError && cause.status === 409) setConflict(cause.message);
    else setError(cause instanceof Error ? cause.message : String(cause));
  };

  /** Saves the draft; answers its new revision (null when it could not be saved). */
  const save = async (): Promise<number | null> => {
    setError(null);
    const definition = toDefinition(draft);
    const text = JSON.stringify(definition);
    if (scenarioId === null) {
      const created = await createDraft({ definition });
      setSavedText(text);
      notifications.show({ position: EDITOR_NOTICES, message: `Draft saved as ${created.id}.`, color: 'green' });
      void navigate(paths.editScenario(created.id), { replace: true });
      return null;
    }
    const saved = await saveDraft(scenarioId, { revision: hasDraft ? revision : null, definition });
    setRevision(saved.revision);
    setHasDraft(true);
    setSavedText(text);
    await refreshVersions();
    return saved.revision;
  };

  const onSave = async () => {
    setBusy('save');
    try {
      await save();
      if (scenarioId !== null)
        notifications.show({ position: EDITOR_NOTICES, message: 'Draft saved.', color: 'green' });
    } catch (cause) {
      failed(cause);
    } finally {
      setBusy(null);
    }
  };

  const onPublish = async () => {
    if (scenarioId === null) return;
    setBusy('publish');
    setError(null);
    try {
      const current = dirty || !hasDraft ? await save() : revision;
      if (current === null) return;
      const published = await publishDraft(scenarioId, { revision: current });
      setHasDraft(false);
      setRevision(null);
      await refreshVersions();
      notifications.show({
        position: EDITOR_NOTICES,
        message: `Published as version ${published.number}.`,
        color: 'green',
      });
    } catch (cause) {
      failed(cause);
    } finally {
      setBusy(null);
    }
  };

  const onRestore = async (number: number) => {
    if (scenarioId === null) return;
    setBusy('restore');
    setError(null);
    try {
      const restored = await restoreVersion(scenarioId, number, { revision: hasDraft ? revision : null });
      loadVersion(restored);
      setHistoryOpen(false);
      await refreshVersions();
      notifications.show({
        position: EDITOR_NOTICES,
        message: `Version ${number} restored as the draft.`,
        color: 'green',
      });
    } catch (cause) {
      failed(cause);
    } finally {
      setBusy(null);
    }
  };

  const onDuplicate = async () => {
    if (scenarioId === null) return;
    setBusy('duplicate');
    setError(null);
    try {
      const copy = await duplicateScenario(scenarioId);
      notifications.show({ position: EDITOR_NOTICES, message: `Copied as ${copy.id}.`, color: 'green' });
      void navigate(paths.editScenario(copy.id));
    } catch (cause) {
      failed(cause);
    } finally {
      setBusy(null);
    }
  };

  const selectedStep = selected === null ? undefined : draft.steps[selected];
  const stepProblems = useMemo(
    () => (selected === null ? new Map<string, string[]>() : problemsOfStep(checked.problems, selected)),
    [checked.problems, selected],
  );
  const ownProblems = useMemo(() => scenarioProblems(checked.problems), [checked.problems]);
  const canPublish = !isNew && !checked.checking && checked.problems.length === 0 && busy === null;
  const heading = isNew ? 'New scenario' : `Edit: ${draft.name.trim() || scenarioId}`;

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={1}>{heading}</Title>
        <Group gap="xs">
          {isNew ? (
            <Badge variant="light" color="gray">
              Not saved yet
            </Badge>
          ) : hasDraft ? (
            <Badge variant="light" color="blue">
              Draft{start.versionNumber !== null ? ` v${start.versionNumber}` : ''} · revision {revision}
            </Badge>
          ) : (
            <Badge variant="light" color="green">
              Published{start.versionNumber !== null ? ` v${start.versionNumber}` : ''}: saving starts a draft
            </Badge>
          )}
          {dirty && (
            <Badge variant="outline" color="orange">
              Unsaved changes
            </Badge>
          )}
          <Text size="sm" c="dimmed">
            {draft.steps.length} step{draft.steps.length === 1 ? '' : 's'}
          </Text>
        </Group>
      </Stack>

      <Group gap="xs">
        <Button
          leftSection={<IconDeviceFloppy size={18} aria-hidden />}
          loading={busy === 'save'}
          disabled={busy !== null && busy !== 'save'}
          onClick={() => void onSave()}
        >
          Save draft
        </Button>
        <Button
          color="green.8"
          leftSection={<IconUpload size={18} aria-hidden />}
          loading={busy === 'publish'}
          disabled={!canPublish}
          onClick={() => void onPublish()}
          aria-describedby="publish-note"
        >
          Publish
        </Button>
        <Button
          variant="light"
          leftSection={<IconPlayerPlay size={18} aria-hidden />}
          onClick={() => setPreviewOpen(true)}
        >
          Preview
        </Button>
        {!isNew && (
          <>
            <Button
              variant="default"
              leftSection={<IconHistory size={18} aria-hidden />}
              onClick={() => setHistoryOpen(true)}
            >
              History
            </Button>
            <Button
              variant="default"
              leftSection={<IconCopy size={18} aria-hidden />}
              loading={busy === 'duplicate'}
              disabled={busy !== null && busy !== 'duplicate'}
              onClick={() => void onDuplicate()}
            >
              Duplicate
            </Button>
          </>
        )}
        <Menu position="bottom-end">
          <Menu.Target>
            <Button variant="default" leftSection={<IconDownload size={18} aria-hidden />}>
              Download
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => downloadScenario(toDefinition(draft), 'yaml')}>As YAML</Menu.Item>
            <Menu.Item onClick={() => downloadScenario(toDefinition(draft), 'json')}>As JSON</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Text size="xs" c="dimmed" id="publish-note">
        {isNew
          ? 'Save the draft first; it can be published once it exists.'
          : checked.problems.length > 0
            ? 'Publish is off while the checker lists problems.'
            : 'Publishing makes this the version trainees play; runs already started keep theirs.'}
      </Text>

      {conflict && (
        <Alert color="red" icon={<IconAlertCircle />} title="Your changes were not saved" role="alert">
          <Stack gap="xs">
            <Text size="sm">{conflict}</Text>
            <Group gap="xs">
              <Button size="xs" onClick={() => downloadScenario(toDefinition(draft), 'yaml')}>
                Download my version
              </Button>
              <Button size="xs" variant="default" onClick={() => downloadScenario(toDefinition(draft), 'json')}>
                Download as JSON
              </Button>
              <Button size="xs" variant="subtle" onClick={() => window.location.reload()}>
                Reload the saved draft
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {error && (
        <Alert
          color="red"
          icon={<IconAlertCircle />}
          role="alert"
          withCloseButton
          onClose={() => setError(null)}
          closeButtonLabel="Dismiss"
        >
          {error}
        </Alert>
      )}

      <Paper withBorder radius="md" p="sm">
        <ProblemsPanel
          problems={checked.problems}
          warnings={checked.warnings}
          checking={checked.checking}
          steps={draft.steps}
          onPick={pickProblem}
        />
      </Paper>

      <div className={classes.workspace}>
        <div className={classes.graphColumn}>
          <ScenarioGraph
            steps={draft.steps}
            problemCounts={checked.problemCounts}
            selectedIndex={selected}
            onSelect={selectStep}
            onConnect={connect}
          />
        </div>
        <div className={classes.formColumn} ref={formRef}>
          <Tabs value={tab} onChange={(value) => setTab((value as Tab | null) ?? 'step')} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="step">Step</Tabs.Tab>
              <Tabs.Tab value="scenario">
                Scenario{ownProblems.size > 0 ? ` (${[...ownProblems.values()].flat().length})` : ''}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="step" pt="md">
              <Stack gap="md">
                <StepToolbar
                  steps={draft.steps}
                  selectedIndex={selected}
                  problemCounts={checked.problemCounts}
                  onSelect={selectStep}
                  onAdd={(kind: StepKind) => {
                    const added = addStep(draft, selected, kind);
                    setDraft(added.draft);
                    setSelected(added.index);
                  }}
                  onDuplicate={() => {
                    if (selected === null) return;
                    const copied = duplicateStep(draft, selected);
                    setDraft(copied.draft);
                    setSelected(copied.index);
                  }}
                  onMove={(to) => {
                    if (selected === null) return;
                    setDraft(moveStep(draft, selected, to));
                    setSelected(to);
                  }}
                  onDelete={() => setConfirmDelete(true)}
                />
                {selectedStep && selected !== null ? (
                  <StepForm
                    step={selectedStep}
                    index={selected}
                    steps={draft.steps}
                    problems={stepProblems}
                    onEdit={editStep}
                  />
                ) : (
                  <Text c="dimmed">Pick a step in the graph or the list, or add one.</Text>
                )}
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="scenario" pt="md">
              <ScenarioForm draft={draft} idLocked={!isNew} problems={ownProblems} onChange={editScenario} />
            </Tabs.Panel>
          </Tabs>
        </div>
      </div>

      <Modal opened={confirmDelete} onClose={() => setConfirmDelete(false)} title="Delete this step?">
        <Stack gap="md">
          <Text size="sm">
            {selectedStep ? `Step ${(selected ?? 0) + 1} (${selectedStep.id || 'no id'}) ` : 'The step '}
            goes, with its options and artifacts. Ways that led to it keep its id, and the checker lists them so you can
            send them elsewhere.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() => {
                if (selected !== null) {
                  setDraft(deleteStep(draft, selected));
                  setSelected(Math.max(0, Math.min(selected, draft.steps.length - 2)));
                }
                setConfirmDelete(false);
              }}
            >
              Delete step
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title="Leave without saving?">
        <Stack gap="md">
          <Text size="sm">Your changes to this draft are not saved. Save the draft first to keep them.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => blocker.reset?.()}>
              Stay
            </Button>
            <Button color="red" onClick={() => blocker.proceed?.()}>
              Leave
            </Button>
          </Group>
        </Stack>
      </Modal>

      {scenarioId !== null && (
        <HistoryDrawer
          scenarioId={scenarioId}
          opened={historyOpen}
          busy={busy === 'restore'}
          onClose={() => setHistoryOpen(false)}
          onRestore={(number) => void onRestore(number)}
        />
      )}
      <PreviewModal
        opened={previewOpen}
        onClose={() => setPreviewOpen(false)}
        draft={draft}
        startIndex={selected ?? 0}
      />
    </Stack>
  );
}
