import { z } from 'zod';

// The API of STIX 2.1 and Attack Flow exchange (/api/sim/import/stix, /api/sim/:id/stix; admins only):
// docs/interoperability.md.

/** A STIX bundle to import is at most 5 MB. */
export const MAX_STIX_FILE_BYTES = 5 * 1024 * 1024;
export const STIX_FILE_ACCEPT = '.json';

export const STIX_MESSAGES = {
  noFile: 'Choose a STIX 2.1 bundle (a .json file) to import.',
  notJson: 'The file is not JSON: a STIX 2.1 bundle is a JSON object.',
  notBundle: 'The file is not a valid STIX 2.1 bundle.',
  tooLarge: 'The file is larger than 5 MB.',
  attackFlowBuilder:
    'This is an Attack Flow Builder file (.afb), which only the builder reads. Open it in Attack Flow Builder, ' +
    'export it as STIX (File, Publish Attack Flow) and import the .json file that makes.',
} as const;

export const stixImportSummarySchema = z.object({
  /** What the draft was made from: a threat report's intelligence, or an Attack Flow. */
  source: z.enum(['report', 'attack-flow']),
  steps: z.number().int(),
  artifacts: z.number().int(),
  techniques: z.array(z.string()),
  /** What the draft holds, counted from its steps: steps by kind, artifacts by kind, the TLP markings kept. */
  kept: z.array(z.string()),
  /** Objects and details the draft does not carry, each in a sentence naming the object. */
  notMapped: z.array(z.string()),
  /** What the author has to do before publishing. */
  toFinish: z.array(z.string()),
});
export type StixImportSummary = z.infer<typeof stixImportSummarySchema>;

/** 201 of POST /api/sim/import/stix: the new draft-only scenario and what the import did. */
export const stixImportResponseSchema = z.object({
  id: z.string(),
  name: z.string(),
  number: z.number().int(),
  revision: z.number().int(),
  /** What the checker finds in the draft (an import is a start, not a finished scenario). */
  problems: z.array(z.object({ path: z.string(), message: z.string() })),
  summary: stixImportSummarySchema,
});
export type StixImportResponse = z.infer<typeof stixImportResponseSchema>;

export const stixExportQuerySchema = z.object({
  /** A version number; the current (published) version by default. */
  version: z.coerce.number().int().min(1).optional(),
});
