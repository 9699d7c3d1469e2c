import * as z from 'zod';

/** The types the product draws in their own colour; any other short text is allowed and drawn grey. */
export const SCENARIO_TYPES = [
  'Ransomware',
  'Data Breach',
  'Hacktivism',
  'Insider Threat',
  'Phishing',
  'Foreign Adversary',
] as const;

export type KnownScenarioType = (typeof SCENARIO_TYPES)[number];

export const ARTIFACT_KINDS = ['report', 'forum-post', 'feed', 'log', 'email', 'chat', 'other'] as const;

export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export const SCENARIO_ID_PATTERN = /^[a-z0-9-]{3,64}$/;
export const STEP_ID_PATTERN = /^[a-z0-9-]{1,64}$/;

// Single-line fields are trimmed so a folded YAML scalar's trailing newline never reaches the screen.
const line = (max: number) => z.string().trim().min(1).max(max);
const optionalLine = (max: number) => z.string().trim().max(max).optional();

export const ScenarioSourceSchema = z.strictObject({
  title: line(200),
  url: z.url({
    protocol: /^https?$/,
    error: (issue) =>
      issue.code === 'invalid_format' ? 'must be a web address starting with http:// or https://' : undefined,
  }),
});

export const ArtifactIndicatorSchema = z.strictObject({
  type: line(40),
  value: line(500),
  context: optionalLine(300),
});

export const ScenarioArtifactSchema = z.strictObject({
  kind: z.enum(ARTIFACT_KINDS),
  title: optionalLine(160),
  source: optionalLine(160),
  date: optionalLine(60),
  // Not trimmed: a log or an email keeps its layout.
  content: z.string().min(1).max(8000),
  indicators: z.array(ArtifactIndicatorSchema).max(50).optional(),
});

const OptionTextSchema = line(500);

/** The object form of an option (the checked form of every option). */
export const ScenarioOptionObjectSchema = z.strictObject({
  text: OptionTextSchema,
  // null = Retry (stay on this step); absent = the following step in file order.
  next_step: z.string().nullable().optional(),
  feedback: z.string().trim().max(1000).optional(),
});

/** An option as written: a plain string is shorthand for `{ text }` and is normalised to that object. */
export const ScenarioOptionSchema = z.union([
  OptionTextSchema.transform((text): z.output<typeof ScenarioOptionObjectSchema> => ({ text })),
  ScenarioOptionObjectSchema,
]);

export const ScenarioStepSchema = z.strictObject({
  id: z.string().regex(STEP_ID_PATTERN, {
    error: 'must be 1 to 64 characters, using only a-z, 0-9 and -',
  }),
  title: line(160),
  description: z.string().trim().min(1).max(2000),
  artifacts: z.array(ScenarioArtifactSchema).max(8).optional(),
  hint: z.string().trim().max(500).optional(),
  mitre_attack: z.string().trim().optional(),
  options: z.array(ScenarioOptionSchema).min(2).max(6),
  correct_option: z.int(),
});

export const ScenarioSchema = z.strictObject({
  id: z
    .string()
    .regex(SCENARIO_ID_PATTERN, { error: 'must be 3 to 64 characters, using only a-z, 0-9 and -' })
    .optional(),
  name: line(120),
  type: line(40),
  difficulty: z.int().min(1).max(5),
  description: z.string().trim().min(1).max(400),
  sources: z.array(ScenarioSourceSchema).max(10).optional(),
  steps: z.array(ScenarioStepSchema).min(1).max(60),
});

/** A scenario file as an author may write it (plain-string options allowed). */
export type ScenarioFile = z.input<typeof ScenarioSchema>;
/** A checked scenario: every option is an object; `next_step` is absent, `null` (Retry) or a step id. */
export type ScenarioDefinition = z.output<typeof ScenarioSchema>;
export type ScenarioStep = z.output<typeof ScenarioStepSchema>;
export type ScenarioOption = z.output<typeof ScenarioOptionSchema>;
export type ScenarioArtifact = z.output<typeof ScenarioArtifactSchema>;
export type ArtifactIndicator = z.output<typeof ArtifactIndicatorSchema>;
export type ScenarioSource = z.output<typeof ScenarioSourceSchema>;
