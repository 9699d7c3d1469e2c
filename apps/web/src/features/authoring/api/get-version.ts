import { api } from '../../../lib/api-client';
import type { ScenarioVersion } from './types';
import { scenarioPath } from './versions-keys';

/** One version, its definition and what the checker says of it. */
export const getVersion = (scenarioId: string, number: number) =>
  api.get<ScenarioVersion>(`${scenarioPath(scenarioId)}/versions/${number}`);

/** The YAML file of one version (a download link, not a fetch). */
export const versionExportUrl = (scenarioId: string, number: number) =>
  `${scenarioPath(scenarioId)}/versions/${number}/export`;

/** The version's intelligence as a STIX 2.1 bundle (a draft only once it passes the checker). */
export const versionStixUrl = (scenarioId: string, number: number) =>
  `/api/sim/${encodeURIComponent(scenarioId)}/stix?version=${number}`;
