/**
 * The records that cross the sub-agent boundary, with the staged spec's exact field names, enums and limits.
 * The JSON Schema sent as the structured-output format is derived from these; limits that the SDK moves
 * into descriptions (maxItems, maxLength) are still enforced here, on every reply.
 * Each schema carries a `title`, which names the record in the request (and lets a test server tell
 * which record a call asks for).
 */
import { z } from 'zod';
import { categoryField } from './categories';

export const Confidence = z.enum(['high', 'medium', 'low']);
export type Confidence = z.infer<typeof Confidence>;
export const Priority = z.enum(['must_fix', 'should_fix', 'nice_to_have']);
export type Priority = z.infer<typeof Priority>;

// Factories, not shared instances: a shared instance becomes a `$defs` reference in the generated schema.
const line = () => z.number().int().min(1);
const sentence = () => z.string().min(1);

export const PrimaryKind = z.enum([
  'implementation',
  'header_or_interface',
  'test_code',
  'test_fixture_or_data',
  'documentation',
  'configuration',
  'generated_or_vendor',
  'unknown',
]);
export const ReviewAs = z.enum([
  'code_review',
  'documentation_review',
  'fixture_review',
  'configuration_review',
  'skip',
]);

export const Step1Record = z
  .object({
    file_path: z.string(),
    primary_kind: PrimaryKind,
    review_as: ReviewAs,
    include_in_pipeline: z.boolean(),
    language: z.string(),
    approx_line_count: z.number().int().min(0).nullable(),
    appearance: z.string().max(600),
    primary_entrypoints: z.array(z.string()).max(5),
    external_touchpoints: z.array(z.string()).max(5),
    concurrency_present: z.boolean(),
  })
  .meta({ title: 'Step1Record' });
export type Step1Record = z.infer<typeof Step1Record>;

export const FileRuleId = z.enum(['F1', 'F2', 'F3']);
// Reasons first: in every finding the rationale comes before the category, confidence and priority it
// supports, so a model writing the record in order argues before it decides.
export const FileLevelFinding = z.object({
  rule_id: FileRuleId,
  location: z.string().min(1),
  rationale: sentence(),
  action: sentence(),
  category: categoryField(),
  confidence: Confidence,
  priority: Priority,
});
export type FileLevelFinding = z.infer<typeof FileLevelFinding>;

export const FunctionRow = z.object({
  qualified_name: z.string().min(1),
  kind: z.string(),
  visibility: z.enum(['public', 'internal', 'private']),
  role_in_file: z.string(),
  start_line: line(),
  /** Not in the spec's record: optional, so a diff review knows where a function ends (else: the next one's start). */
  end_line: line().nullable().optional(),
  solo_review: z.boolean(),
});
export type FunctionRow = z.infer<typeof FunctionRow>;

export const FileAnalysis = z
  .object({
    file_path: z.string(),
    brutal_one_line: z.string(),
    invariants: z.array(z.string()).max(5),
    risk_flags: z.array(z.string()).max(3),
    file_level_findings: z.array(FileLevelFinding),
    functions: z.array(FunctionRow),
  })
  .meta({ title: 'FileAnalysis' });
export type FileAnalysis = z.infer<typeof FileAnalysis>;

export const FunctionRuleId = z.enum(['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8']);
export type FunctionRuleId = z.infer<typeof FunctionRuleId>;
export const FUNCTION_RULES = FunctionRuleId.options;

export const Verdict = z.object({
  rule_id: FunctionRuleId,
  line: line().nullable(),
  rationale: z.string().nullable(),
  action: z.string().nullable(),
  /** What a non-clean verdict is about (null for clean and na); see model/categories.ts. */
  category: categoryField(),
  verdict: z.enum(['clean', 'advisory', 'flag', 'na']),
  confidence: Confidence,
  priority: z.enum(['should_fix', 'nice_to_have']).nullable(),
});
export type Verdict = z.infer<typeof Verdict>;

/** Rules whose spec says "Flag: N/A": alone they are never a likely bug. */
const ADVISORY_ONLY_RULES = new Set(['A6', 'A8']);

/** One verdict per rule A1–A8, with the slots each verdict kind requires. */
const Verdicts = z
  .array(Verdict)
  .length(8)
  .superRefine((verdicts, ctx) => {
    const seen = new Set(verdicts.map((v) => v.rule_id));
    for (const rule of FUNCTION_RULES) {
      if (!seen.has(rule))
        ctx.addIssue({ code: 'custom', message: `no verdict for rule ${rule}; give exactly one per rule A1-A8` });
    }
    verdicts.forEach((v, i) => {
      const at = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [i, field], message });
      if (v.verdict === 'advisory' || v.verdict === 'flag') {
        if (v.line === null) at('line', `${v.rule_id} is ${v.verdict}: line is required`);
        if (!v.action) at('action', `${v.rule_id} is ${v.verdict}: action (one sentence) is required`);
        if (!v.rationale) at('rationale', `${v.rule_id} is ${v.verdict}: rationale (what breaks) is required`);
      }
      if (v.verdict === 'advisory' && v.priority === null)
        at('priority', `${v.rule_id} is advisory: priority must be should_fix or nice_to_have`);
      if (v.verdict !== 'advisory' && v.priority !== null)
        at('priority', `${v.rule_id} is ${v.verdict}: priority must be null`);
      if (v.verdict === 'flag' && ADVISORY_ONLY_RULES.has(v.rule_id))
        at('verdict', `${v.rule_id} can never be flag (at most advisory)`);
    });
  });

/** One function's review: the unit of Step 3, alone (solo) or inside a batch. */
const functionReview = () => ({
  function_qualified_name: z.string(),
  start_line: line(),
  verdicts: Verdicts,
});

export const PerFunctionReview = z
  .object({ file_path: z.string(), ...functionReview() })
  .meta({ title: 'PerFunctionReview' });
export type PerFunctionReview = z.infer<typeof PerFunctionReview>;

export const BatchReview = z
  .object({ file_path: z.string(), reviews: z.array(z.object(functionReview())) })
  .meta({ title: 'BatchReview' });
export type BatchReview = z.infer<typeof BatchReview>;

export const ChallengeResult = z
  .object({
    file_path: z.string(),
    challenges: z.array(
      z.object({
        rule_id: z.string(),
        function_qualified_name: z.string().nullable(),
        line: z.number().int(),
        challenge_reason: sentence(),
        survived: z.boolean(),
        revised_priority: Priority.nullable(),
      }),
    ),
  })
  .meta({ title: 'ChallengeResult' });
export type ChallengeResult = z.infer<typeof ChallengeResult>;

export const GlobalRuleId = z.enum(['G1', 'G2', 'G3', 'G4']);
export const CrossFileFinding = z.object({
  rule_id: GlobalRuleId,
  locations: z.array(z.string()).min(1),
  rationale: sentence(),
  action: sentence(),
  category: categoryField(),
  confidence: Confidence,
  priority: Priority,
});
export type CrossFileFinding = z.infer<typeof CrossFileFinding>;

export const SynthesisResult = z
  .object({
    verdict_one_line: z.string(),
    executive_summary: z.string(),
    file_groups: z.array(
      z.object({
        group_name: z.string(),
        group_description: z.string(),
        file_paths: z.array(z.string()),
      }),
    ),
    file_profiles: z.array(z.object({ file_path: z.string(), profile: z.string() })),
    cross_cutting_analysis: z.string(),
    cross_file_findings: z.array(CrossFileFinding),
  })
  .meta({ title: 'SynthesisResult' });
export type SynthesisResult = z.infer<typeof SynthesisResult>;

/** Step 5 over the parts of a review too large for one synthesis: the overall view, and findings across parts. */
export const SynthesisMerge = z
  .object({
    verdict_one_line: z.string(),
    executive_summary: z.string(),
    cross_cutting_analysis: z.string(),
    cross_file_findings: z.array(CrossFileFinding),
  })
  .meta({ title: 'SynthesisMerge' });
export type SynthesisMerge = z.infer<typeof SynthesisMerge>;

/** Step 0's output. */
export interface FileEntry {
  path: string;
  companion_path: string | null;
}
export interface DiscoveryResult {
  review_roots: string[];
  file_entries: FileEntry[];
}

export interface ContextFile {
  path: string;
  text: string;
}
