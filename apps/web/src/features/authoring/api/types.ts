// The scenario versions API as the editor names it: the server's shared schemas (@tradecraft/shared,
// scenarios/versions.api.ts), under the names the editor's code uses.
export type {
  DraftRevisionInput as PublishDraftInput,
  DuplicateScenarioInput,
  DuplicatedScenario as DuplicateScenarioResponse,
  NewDraftScenario as CreateDraftResponse,
  NewDraftScenarioInput as CreateDraftInput,
  PublishedVersion as PublishDraftResponse,
  RestoreVersionInput,
  SaveDraftInput,
  SavedDraft as SaveDraftResponse,
  VersionDetail as ScenarioVersion,
  VersionHistory as ScenarioVersions,
  VersionState,
  VersionSummary,
} from '@tradecraft/shared';
