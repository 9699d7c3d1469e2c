import { z } from 'zod';

/** Public facts about this installation: where its code lives and which ATT&CK release it maps to. */
export const metaSchema = z.object({
  repositoryUrl: z.string(),
  attackVersion: z.string(),
});
export type Meta = z.infer<typeof metaSchema>;
