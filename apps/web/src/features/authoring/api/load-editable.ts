import { queryOptions, useQuery } from '@tanstack/react-query';
import { getDraft } from './get-draft';
import { getVersion } from './get-version';
import { getVersions } from './get-versions';
import type { ScenarioVersion, ScenarioVersions } from './types';
import { scenarioVersionsKey } from './versions-keys';

export interface EditableScenario {
  versions: ScenarioVersions;
  /** What the editor opens: the draft, else the current (or newest) version to start a draft from. */
  version: ScenarioVersion | null;
  /** The revision a save must name: the draft's, or null when saving creates the draft. */
  revision: number | null;
}

/** The draft when there is one, else the current version (a save then starts the draft from it). */
export async function loadEditable(scenarioId: string): Promise<EditableScenario> {
  const versions = await getVersions(scenarioId);
  if (versions.draft) {
    const draft = await getDraft(scenarioId);
    return { versions, version: draft, revision: draft.revision };
  }
  const number = versions.currentVersion ?? versions.versions[0]?.number ?? null;
  const version = number === null ? null : await getVersion(scenarioId, number);
  return { versions, version, revision: null };
}

export const editableQueryOptions = (scenarioId: string) =>
  queryOptions({
    queryKey: [...scenarioVersionsKey(scenarioId), 'editable'],
    queryFn: () => loadEditable(scenarioId),
    // The editor keeps its own copy once loaded; a refetch would not replace it anyway.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export function useEditableScenario(scenarioId: string | null) {
  return useQuery({ ...editableQueryOptions(scenarioId ?? ''), enabled: scenarioId !== null });
}
