import { z } from 'zod';
import { playerArtifactSchema } from '../runs/step-answers.schema';
import { CASEFILE_MESSAGES, MAX_NOTES_CHARS } from './casefile-rules';

// The case file of a run (docs/architecture.md, "The case file"): the artifacts of every step the trainee has
// reached on their own path, their notebook and their evidence board. Only the run's owner reads or writes it.

export const casefileRunParamsSchema = z.object({ id: z.string().min(1).max(100) });
export const pinParamsSchema = z.object({ id: z.string().min(1).max(100), pinId: z.string().min(1).max(100) });

/** PUT /api/runs/:id/notes: the whole notebook as it is now (an empty text clears it). */
export const notesInputSchema = z.object({
  text: z.string({ error: 'The notes must be text.' }).max(MAX_NOTES_CHARS, CASEFILE_MESSAGES.notesTooLong),
});
export type NotesInput = z.infer<typeof notesInputSchema>;

export const runNotesSchema = z.object({
  text: z.string(),
  /** When the notebook was last saved; null when nothing was ever written. */
  updatedAt: z.string().nullable(),
});
export type RunNotes = z.infer<typeof runNotesSchema>;
export const runNotesResponseSchema = z.object({ notes: runNotesSchema });

/** POST /api/runs/:id/pins: an artifact of a reached step, or one of its lines (numbered from 1). */
export const pinInputSchema = z.object({
  stepId: z
    .string({ error: 'Say which step the artifact is on.' })
    .min(1, 'Say which step the artifact is on.')
    .max(64, CASEFILE_MESSAGES.notReached),
  artifactIndex: z
    .int({ error: 'Say which artifact to pin.' })
    .min(0, 'Say which artifact to pin.')
    .max(7, CASEFILE_MESSAGES.notReached),
  /** A line of the artifact's text, from 1; without it the whole artifact is pinned. */
  line: z
    .int({ error: 'A line is a whole number from 1.' })
    .min(1, 'A line is a whole number from 1.')
    .max(10_000, CASEFILE_MESSAGES.lineNotFound)
    .optional(),
});
export type PinInput = z.infer<typeof pinInputSchema>;

export const runPinSchema = z.object({
  id: z.string(),
  stepId: z.string(),
  /** The step's title as the trainee met it (the step id when the scenario no longer has it). */
  stepTitle: z.string(),
  artifactIndex: z.number().int(),
  artifactTitle: z.string(),
  /** The pinned line (from 1), or null for the whole artifact. */
  line: z.number().int().nullable(),
  /** The pinned line's text, or the artifact's title for a whole artifact, as the server read it. */
  quote: z.string(),
  pinnedAt: z.string(),
});
export type RunPin = z.infer<typeof runPinSchema>;

export const runPinResponseSchema = z.object({ pin: runPinSchema });
export const runPinsResponseSchema = z.object({ pins: z.array(runPinSchema) });

export const caseFileArtifactSchema = playerArtifactSchema.extend({
  /** The artifact's place (from 0) on its step, as a pin names it. */
  index: z.number().int(),
});
export type CaseFileArtifact = z.infer<typeof caseFileArtifactSchema>;

export const caseFileStepSchema = z.object({
  stepId: z.string(),
  title: z.string(),
  /** The step's place in the path the trainee took, from 1. */
  order: z.number().int(),
  /** The step the run is on now. */
  current: z.boolean(),
  artifacts: z.array(caseFileArtifactSchema),
});
export type CaseFileStep = z.infer<typeof caseFileStepSchema>;

/** GET /api/runs/:id/case-file: the steps reached, in the order met, with their artifacts; the notes; the pins. */
export const caseFileSchema = z.object({
  runId: z.string(),
  steps: z.array(caseFileStepSchema),
  notes: runNotesSchema,
  pins: z.array(runPinSchema),
});
export type CaseFile = z.infer<typeof caseFileSchema>;
export const caseFileResponseSchema = z.object({ caseFile: caseFileSchema });
