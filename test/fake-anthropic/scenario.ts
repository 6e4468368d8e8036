/**
 * The scenario file: records planted per file, synthesis overrides, lens findings per reviewer, validator
 * verdicts, benchmark judgements and faults. Planted parts are checked against the engine's own record schemas, so a typo fails
 * at load time with a path, not mid-benchmark.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { LensFinding, LensValidation } from '../../src/model/lensRecords';
import {
  CrossFileFinding,
  FileAnalysis,
  FileLevelFinding,
  FunctionRuleId,
  PerFunctionReview,
  Priority,
  Step1Record,
  SynthesisResult,
  Verdict,
} from '../../src/model/records';
import { JudgeVerdict } from '../../src/eval/verdict';
import { plantedVerdicts } from './verdicts';

const PlantedVerdict = Verdict.omit({ rule_id: true }).partial().strict();
const PlantedRules = z.partialRecord(FunctionRuleId, PlantedVerdict);
export type PlantedRules = z.infer<typeof PlantedRules>;

const PlantedChallenge = z.strictObject({
  rule_id: z.string(),
  line: z.number().int(),
  function_qualified_name: z.string().optional(),
  survived: z.boolean().optional(),
  revised_priority: Priority.nullable().optional(),
  challenge_reason: z.string().min(1).optional(),
});
export type PlantedChallenge = z.infer<typeof PlantedChallenge>;

/** A planted finding may leave out its category: the fake gives the one a model would (records.ts). */
const PlantedFileFinding = FileLevelFinding.extend({ category: FileLevelFinding.shape.category.optional() });
export const PlantedCrossFinding = CrossFileFinding.extend({ category: CrossFileFinding.shape.category.optional() });

const PlantedFile = z.strictObject({
  step1: Step1Record.partial().strict().optional(),
  step2: FileAnalysis.extend({ file_level_findings: z.array(PlantedFileFinding) })
    .partial()
    .strict()
    .optional(),
  reviews: z
    .record(z.string(), PlantedRules)
    .superRefine((reviews, ctx) => {
      // Validate each function's verdicts as the engine will: the planted ones merged over the clean defaults.
      for (const [fn, rules] of Object.entries(reviews)) {
        const check = PerFunctionReview.safeParse({
          file_path: '-',
          function_qualified_name: fn,
          start_line: 1,
          verdicts: plantedVerdicts(rules),
        });
        for (const issue of check.success ? [] : check.error.issues) {
          const rule = typeof issue.path[1] === 'number' ? (FunctionRuleId.options[issue.path[1]] ?? '') : '';
          ctx.addIssue({
            code: 'custom',
            path: [fn, rule, ...issue.path.slice(2)].filter((p) => p !== ''),
            message: issue.message,
          });
        }
      }
    })
    .optional(),
  challenges: z.array(PlantedChallenge).optional(),
});
export type PlantedFile = z.infer<typeof PlantedFile>;

/** A lens finding as a scenario plants it: where it is, and whatever else the test cares about. */
const PlantedLensFinding = LensFinding.partial().required({ file: true, line: true }).strict();
export type PlantedLensFinding = z.infer<typeof PlantedLensFinding>;

/** A validator's answer for the finding at file:line (unplanted findings are VALIDATED). */
const PlantedValidation = z.strictObject({
  file: z.string(),
  line: z.number().int(),
  verdict: LensValidation.shape.verdict,
  reason: LensValidation.shape.reason.optional(),
});
export type PlantedValidation = z.infer<typeof PlantedValidation>;

/**
 * A benchmark judge's answer (`skeptic eval`) for the requests that name the golden text and, after it, the
 * finding text (in a packet or in a prompt's prose alike); every other pair is judged no match.
 */
const PlantedJudgement = z.strictObject({
  golden: z.string().min(1),
  finding: z.string().min(1),
  match: JudgeVerdict.shape.match,
  confidence: JudgeVerdict.shape.confidence.optional(),
  reasoning: JudgeVerdict.shape.reasoning.optional(),
});
export type PlantedJudgement = z.infer<typeof PlantedJudgement>;

/** `reviewer` matches a lens call's packet (security, logic, …, cross-repo). */
const Match = z.strictObject({
  record: z.string().optional(),
  file: z.string().optional(),
  function: z.string().optional(),
  reviewer: z.string().optional(),
});
const faultBase = {
  match: Match.default({}),
  times: z
    .number()
    .int()
    .refine((n) => n === -1 || n >= 1, 'times must be -1 (forever) or at least 1')
    .default(1),
};
const Fault = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('status'),
    ...faultBase,
    status: z.number().int().min(400).max(599),
    retry_after: z.number().min(0).optional(),
  }),
  z.strictObject({ kind: z.literal('drop'), ...faultBase }),
  /** A model or gateway without structured outputs: 400 for requests with output_config.format, normal answers to forced submit tools. */
  z.strictObject({ kind: z.literal('no_structured_output'), ...faultBase }),
  z.strictObject({ kind: z.literal('slow'), ...faultBase, ms: z.number().int().min(0) }),
  z.strictObject({ kind: z.literal('invalid_json'), ...faultBase }),
  z.strictObject({ kind: z.literal('schema_invalid'), ...faultBase }),
  /** A batch without these functions' reviews, or a FileAnalysis without them and with the `invent`ed ones added. */
  z.strictObject({
    kind: z.literal('omit_functions'),
    ...faultBase,
    functions: z.array(z.string()).min(1),
    invent: z.array(z.string().min(1)).default([]),
  }),
  z.strictObject({ kind: z.literal('bad_line'), ...faultBase }),
  /** A rambling model: the record's longest text field runs this many characters longer (past max_tokens, it is cut). */
  z.strictObject({ kind: z.literal('verbose'), ...faultBase, chars: z.number().int().min(1).default(100_000) }),
  z.strictObject({
    kind: z.literal('tool_use'),
    ...faultBase,
    tool: z.string().min(1),
    input: z.record(z.string(), z.unknown()).default({}),
    /** More tool calls in the same reply (a hostile model probing many paths in one turn). */
    also: z
      .array(z.strictObject({ tool: z.string().min(1), input: z.record(z.string(), z.unknown()).default({}) }))
      .default([]),
  }),
  /** A broken gateway: 200 with an HTML page instead of a message. */
  z.strictObject({ kind: z.literal('html'), ...faultBase }),
  /** The model declines: stop_reason "refusal", a short text and no record. */
  z.strictObject({ kind: z.literal('refusal'), ...faultBase }),
  /** An endpoint that echoes the request's credentials back in its error message. */
  z.strictObject({
    kind: z.literal('echo_auth'),
    ...faultBase,
    status: z.number().int().min(400).max(599).default(400),
  }),
  // Message Batches only (a live request never takes these): what one request's line in a batch's results
  // comes to. `expire`: the request is not run and its result is "expired"; `vanish`: the batch holding it
  // answers 404 once it has ended; `cut_results`: the results stream stops halfway through its line;
  // `stray_result`: a line with a custom_id the batch never had comes before its line; `invalid_result`: its line is
  // a "succeeded" result without its message; `flat_error`: the request is not run and its result is errored
  // with the flat {type, message} some of the API's examples show; `junk_line`: a line of this text (blank,
  // or not JSON) comes before its line; `duplicate_result`: its line leads the results and an
  // "expired" line for the same custom_id follows it; `no_counts`: retrieving the batch holding it answers without request_counts.
  z.strictObject({ kind: z.literal('expire'), ...faultBase }),
  z.strictObject({ kind: z.literal('vanish'), ...faultBase }),
  z.strictObject({ kind: z.literal('cut_results'), ...faultBase }),
  z.strictObject({ kind: z.literal('stray_result'), ...faultBase }),
  z.strictObject({ kind: z.literal('invalid_result'), ...faultBase }),
  z.strictObject({
    kind: z.literal('flat_error'),
    ...faultBase,
    status: z.number().int().min(400).max(599).default(400),
  }),
  z.strictObject({
    kind: z.literal('junk_line'),
    ...faultBase,
    text: z.string().default('<html>502 Bad Gateway</html>'),
  }),
  z.strictObject({ kind: z.literal('duplicate_result'), ...faultBase }),
  z.strictObject({ kind: z.literal('no_counts'), ...faultBase }),
  /** Creating a batch that holds a matching request answers this status (each create counts one hit). */
  z.strictObject({
    kind: z.literal('create_status'),
    ...faultBase,
    status: z.number().int().min(400).max(599),
    retry_after: z.number().min(0).optional(),
  }),
]);
export type Fault = z.infer<typeof Fault>;
export const BATCH_FAULTS: readonly Fault['kind'][] = [
  'expire',
  'vanish',
  'cut_results',
  'stray_result',
  'invalid_result',
  'flat_error',
  'junk_line',
  'duplicate_result',
  'no_counts',
];

/** Where a fault strikes: a request as it runs (live or in a batch), its line in a batch's results, or the create call of its batch. */
export type FaultPlace = 'request' | 'result' | 'create';
export function placeOf(kind: Fault['kind']): FaultPlace {
  if (kind === 'create_status') return 'create';
  return BATCH_FAULTS.includes(kind) ? 'result' : 'request';
}

const ScenarioSchema = z.strictObject({
  files: z.record(z.string(), PlantedFile).default({}),
  synthesis: SynthesisResult.extend({ cross_file_findings: z.array(PlantedCrossFinding) })
    .partial()
    .strict()
    .optional(),
  /** Lens mode: each reviewer's findings; a reviewer call returns those in the files it was shown. */
  lenses: z.record(z.string(), z.array(PlantedLensFinding)).default({}),
  validations: z.array(PlantedValidation).default([]),
  judgements: z.array(PlantedJudgement).default([]),
  faults: z.array(Fault).default([]),
});
/** What a scenario file (or a test) writes; defaults not yet applied. */
export type Scenario = z.input<typeof ScenarioSchema>;
/** A validated scenario, defaults applied. */
export type LoadedScenario = z.output<typeof ScenarioSchema>;

export class ScenarioError extends Error {}

export function parseScenario(value: unknown, source = 'scenario'): LoadedScenario {
  const parsed = ScenarioSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
  throw new ScenarioError(`${source}: ${issues.join('; ')}`);
}

export function loadScenario(file: string): LoadedScenario {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ScenarioError(`${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parseScenario(value, file);
}

/** `files["src/a.ts"].reviews["Cart.total"].A1.line`: quoted where a key is not a plain identifier. */
function formatPath(path: PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path
    .map((p, i) =>
      typeof p === 'number'
        ? `[${p}]`
        : /^[A-Za-z_]\w*$/.test(String(p))
          ? `${i ? '.' : ''}${String(p)}`
          : `[${JSON.stringify(String(p))}]`,
    )
    .join('');
}
