/** The `--json` result of a staged run: the contract other tools read, declared once as a schema. */
import { z } from 'zod';
import type { StagedResult } from '../model/events';
import type { Usage } from '../model/usage';
import { formatLocation } from '../model/location';
import { Confidence, Priority } from '../model/records';
import type { Finding } from '../model/finding';
import { SUPPRESSION_KINDS, type SuppressedFinding } from '../model/suppressed';
import { BelowMinPriorityJson, belowJson } from './belowMinPriority';

const StagedJsonFinding = z.object({
  file: z.string(),
  line: z.number().int().min(1),
  rule_id: z.string(),
  priority: Priority,
  confidence: Confidence,
  function: z.string().nullable(),
  action: z.string(),
  rationale: z.string(),
  locations: z.array(z.string()),
  /** What the finding is about (src/model/categories.ts); null where the model gave none. */
  category: z.string().nullable(),
});

/** What hid a finding, beside its fields as in `findings` (the same for both modes' JSON). */
export const SuppressionFields = {
  /** "comment" (skeptic-ignore), "team" (.skeptic/dismissed.json) or "user" (the extension user's own list). */
  by: z.enum(SUPPRESSION_KINDS),
  /** The comment's reason, or the dismissal's reason and note; null when the comment gives none. */
  note: z.string().nullable(),
  /** The change under review adds the suppression (a comment on a line it adds, a team entry it adds). */
  added_in_change: z.boolean(),
};

/** A suppressed finding's extra fields, as the JSON spells them. */
export function suppressionFields(s: SuppressedFinding) {
  return { by: s.by, note: s.note, added_in_change: s.addedInChange };
}

export const StagedJsonReport = z.object({
  version: z.literal(1),
  mode: z.literal('staged'),
  model: z.string(),
  review_roots: z.array(z.string()),
  files: z.array(
    z.object({
      path: z.string(),
      companion_path: z.string().nullable(),
      status: z.enum(['reviewed', 'skipped', 'failed']),
      functions_reviewed: z.number().int().min(0),
      reason: z.string().optional(),
    }),
  ),
  /** The main findings: in a diff review, those on the change. */
  findings: z.array(StagedJsonFinding),
  /** Diff review: must_fix problems on lines the change did not touch, kept apart from the main findings. */
  pre_existing: z.array(StagedJsonFinding),
  /** Findings a suppression hid, with what hid it; not counted anywhere else. */
  suppressed: z.array(StagedJsonFinding.extend(SuppressionFields)),
  /** --min-priority: the findings below it, left out of `findings` and counted here; null without a floor. */
  below_min_priority: BelowMinPriorityJson(StagedJsonFinding),
  usage: z.object({
    calls: z.number().int(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cache_read_input_tokens: z.number().int(),
    cache_creation_input_tokens: z.number().int(),
    /**
     * Dollars at the dated price table's rates; null when a model had no price, and for provider vscode-lm,
     * whose calls the editor's plan bills (calls and the model's own token counts stand; cache fields are 0).
     */
    cost_usd: z.number().nonnegative().nullable(),
    /** The effort the requests sent, per step (staged) or role (lenses); null: none sent, the model's default. */
    effort: z.record(z.string(), z.string().nullable()),
  }),
  report_path: z.string().nullable(),
});
export type StagedJsonReport = z.infer<typeof StagedJsonReport>;

export function stagedJson(result: StagedResult, reportPath: string | null): StagedJsonReport {
  return {
    version: 1,
    mode: 'staged',
    model: result.models.review ?? Object.values(result.models)[0] ?? '',
    review_roots: result.reviewRoots,
    files: result.files.map((f) => ({
      path: f.path,
      companion_path: f.companion_path,
      status: f.status,
      functions_reviewed: f.functions_reviewed,
      ...(f.reason !== undefined ? { reason: f.reason } : {}),
    })),
    findings: result.findings.filter((f) => !f.pre_existing).map(jsonFinding),
    pre_existing: result.findings.filter((f) => f.pre_existing).map(jsonFinding),
    suppressed: (result.suppressed ?? []).map((s) => ({ ...jsonFinding(s.finding), ...suppressionFields(s) })),
    below_min_priority: belowJson(result.belowMinPriority, result.belowMinPriority?.findings.map(jsonFinding) ?? []),
    usage: { ...jsonUsage(result.usage), effort: result.effort },
    report_path: reportPath,
  };
}

/** The run's usage as both modes' JSON spells it: the counts and the dollars (null when not priced), nothing else. */
export function jsonUsage(u: Usage): Omit<Usage, 'billing'> {
  const { calls, input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens, cost_usd } = u;
  return { calls, input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens, cost_usd };
}

function jsonFinding(f: Finding): z.infer<typeof StagedJsonFinding> {
  return {
    file: f.file,
    line: f.line,
    rule_id: f.rule_id,
    priority: f.priority,
    confidence: f.confidence,
    function: f.function,
    action: f.action,
    rationale: f.rationale,
    locations: f.locations.map(formatLocation),
    category: f.category ?? null,
  };
}
