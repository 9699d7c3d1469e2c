import { z } from 'zod';

/** The first admin's setup steps, in the order the dashboard lists them. */
export const SETUP_ITEMS = [
  'passwordChanged',
  'publicOriginSet',
  'traineeApproved',
  'difficultyChosen',
  'scenarioUploaded',
] as const;
export const setupItemSchema = z.enum(SETUP_ITEMS);
export type SetupItem = z.infer<typeof setupItemSchema>;

export const setupChecklistSchema = z.object({
  /** Where the operations guide explains the server's environment (PUBLIC_ORIGIN and the rest). */
  configurationGuideUrl: z.string(),
  items: z.array(
    z.object({
      id: setupItemSchema,
      /** What the platform shows: the step is done. */
      done: z.boolean(),
      /** An admin chose to hide the step (for every admin). */
      dismissed: z.boolean(),
    }),
  ),
});
export type SetupChecklist = z.infer<typeof setupChecklistSchema>;

export const dismissSetupItemInputSchema = z.object({ item: setupItemSchema });
export type DismissSetupItemInput = z.infer<typeof dismissSetupItemInputSchema>;
