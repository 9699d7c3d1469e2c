import { z } from 'zod';
import { scenarioSummarySchema } from './scenarios.api';

/**
 * POST /api/sim/check-scenario: what the upload's checker finds in a file, without publishing it. `ok` says
 * whether an upload of the same file would publish it; nothing is stored either way.
 */
export const checkScenarioResponseSchema = z.object({
  /** The name the file had on the admin's computer, for display only. */
  filename: z.string(),
  /** Bytes. */
  size: z.number().int(),
  /** No problem: an upload of this file would publish it (warnings never refuse a file). */
  ok: z.boolean(),
  /** Every problem that would refuse the upload, as `place: message`. */
  problems: z.array(z.string()),
  /** The same problems, split into place and message. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })),
  /** Content advice that would not refuse the upload (such as the longest-option rule), as `place: message`. */
  warnings: z.array(z.string()),
  /** What the file describes, when it could be read as a scenario; null otherwise. */
  scenario: scenarioSummarySchema.nullable(),
});
export type CheckScenarioResponse = z.infer<typeof checkScenarioResponseSchema>;
