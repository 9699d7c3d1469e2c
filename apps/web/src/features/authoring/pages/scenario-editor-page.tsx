import { Center, Loader, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';
import { LoadError } from '../../../ui/load-error';
import { useEditableScenario } from '../api/load-editable';
import { emptyScenario, toDefinition } from '../lib/draft';
import { ScenarioEditor, type EditorStart } from '../components/scenario-editor';

/**
 * /admin/scenarios/:id/edit opens the scenario's draft (or its current version, which a save turns into a
 * draft); /admin/scenarios/new starts from one empty decision.
 */
export default function ScenarioEditorPage() {
  const { scenarioId } = useParams();
  return scenarioId ? <EditExisting key={scenarioId} scenarioId={scenarioId} /> : <NewScenario />;
}

function NewScenario() {
  const start = useMemo<EditorStart>(
    () => ({
      scenarioId: null,
      definition: toDefinition(emptyScenario()),
      revision: null,
      versionNumber: null,
      hasDraft: false,
    }),
    [],
  );
  return <ScenarioEditor start={start} />;
}

function EditExisting({ scenarioId }: { scenarioId: string }) {
  const editable = useEditableScenario(scenarioId);
  usePageTitle(editable.data ? `Edit ${editable.data.versions.name}` : null);
  if (editable.isPending) {
    return (
      <Center mih={240} role="status">
        <Stack align="center" gap="xs">
          <Loader aria-hidden />
          <Text>Loading the scenario…</Text>
        </Stack>
      </Center>
    );
  }
  if (editable.isError) {
    return (
      <LoadError
        title="The scenario could not be loaded"
        error={editable.error}
        onRetry={() => void editable.refetch()}
      />
    );
  }
  const { versions, version, revision } = editable.data;
  const start: EditorStart = {
    scenarioId,
    definition: version?.definition ?? { ...toDefinition(emptyScenario()), id: scenarioId },
    revision,
    versionNumber: version?.number ?? null,
    hasDraft: versions.draft !== null,
  };
  return <ScenarioEditor start={start} />;
}
