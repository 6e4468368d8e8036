/**
 * The `--json` result of a lens run, in the seed's format (`version` "1.1", with `summary` holding the
 * post-validation counts), plus additive fields. Declared once as a schema, which the tests hold it to.
 */
import { z } from 'zod';
import type { LensResult } from '../model/events';
import { severityCounts, sortLensFindings as sortFindings, type MergedFinding } from '../model/lens';
import { Severity } from '../model/lensRecords';
import { jsonUsage, suppressionFields, SuppressionFields } from './json';
import { BelowMinPriorityJson, belowJson } from './belowMinPriority';

const count = () => z.number().int().min(0);
const SevereCounts = z.object({ critical: count(), high: count() });

export const LensJsonFinding = z.object({
  severity: Severity,
  file: z.string(),
  line: z.number().int().min(1),
  title: z.string(),
  evidence: z.string(),
  recommendation: z.string(),
  confidence: z.number().int().min(3).max(5),
  reviewers: z.array(z.string()).min(1),
  /** The repository in a multi-repo run; null otherwise. */
  repository: z.string().nullable(),
  validated: z.union([z.boolean(), z.literal('timeout')]).optional(),
  validationReason: z.string().optional(),
  originalSeverity: Severity.optional(),
  preExisting: z.boolean().optional(),
  /** What the finding is about (src/model/categories.ts); null where the reviewer gave none. */
  category: z.string().nullable(),
});

export const LensJsonReport = z.object({
  version: z.literal('1.1'),
  scope: z.string(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  reviewers: z.array(z.string()),
  gateCheck: z.object({ passed: z.boolean(), reason: z.string().nullable() }),
  summary: z.object({ total: count(), critical: count(), high: count(), medium: count(), low: count(), info: count() }),
  validation: z.object({
    performed: z.boolean(),
    preValidation: SevereCounts,
    postValidation: SevereCounts,
    rejected: count(),
    timeouts: count(),
  }),
  /** The main findings: in a change review, those on the change. */
  findings: z.array(LensJsonFinding),
  // Additive fields.
  /** Change scopes: CRITICAL/HIGH problems on lines the change did not touch, kept apart (not in `summary`). */
  pre_existing: z.array(LensJsonFinding),
  /** Findings a suppression hid, with what hid it; not in `summary` or any other count. */
  suppressed: z.array(LensJsonFinding.extend(SuppressionFields)),
  /** --min-priority: the findings below it, left out of `findings` and counted here; null without a floor. */
  below_min_priority: BelowMinPriorityJson(LensJsonFinding),
  /** Findings removed for a category that is never a finding (prompts/noise.md), per category. */
  noiseDropped: z.record(z.string(), count()),
  mode: z.literal('lenses'),
  missingReviewers: z.array(z.string()),
  models: z.record(z.string(), z.string()),
  /** Findings each reviewer dropped below confidence 3 (self-critique). */
  lowConfidenceDropped: z.record(z.string(), count()),
  repositories: z.array(
    z.object({
      path: z.string().nullable(),
      scope: z.string(),
      reviewers: z.array(z.string()),
      missingReviewers: z.array(z.string()),
      files: z.array(z.string()),
    }),
  ),
  skippedRepositories: z.array(z.object({ repository: z.string(), reason: z.string() })),
  spec: z.string().nullable(),
  rubric: z
    .object({
      file: z.string(),
      criteria: count(),
      passed: count(),
      failed: count(),
      items: z.array(z.object({ line: z.number().int().min(1), text: z.string(), status: z.enum(['PASS', 'FAIL']) })),
    })
    .nullable(),
  usage: z.object({
    calls: count(),
    input_tokens: count(),
    output_tokens: count(),
    cache_read_input_tokens: count(),
    cache_creation_input_tokens: count(),
    /** As in the staged JSON (json.ts): null when a model had no price or the editor's plan billed the calls. */
    cost_usd: z.number().nonnegative().nullable(),
    /** The effort the requests sent, per step (staged) or role (lenses); null: none sent, the model's default. */
    effort: z.record(z.string(), z.string().nullable()),
  }),
  report_path: z.string().nullable(),
});
export type LensJsonReport = z.infer<typeof LensJsonReport>;

export function lensJson(result: LensResult, meta: { date: string; reportPath: string | null }): LensJsonReport {
  const every = sortFindings([...result.lensFindings, ...result.crossRepo]);
  const all = every.filter((f) => !f.preExisting);
  const v = result.validation;
  return {
    version: '1.1',
    scope: result.scope,
    date: meta.date,
    reviewers: result.reviewers,
    gateCheck: result.gateCheck,
    summary: { total: all.length, ...severityCounts(all) },
    validation: {
      performed: v.performed,
      preValidation: v.preValidation,
      postValidation: v.postValidation,
      rejected: v.rejected,
      timeouts: v.timeouts,
    },
    findings: all.map(jsonFinding),
    pre_existing: every.filter((f) => f.preExisting).map(jsonFinding),
    suppressed: (result.suppressed ?? []).flatMap((s) =>
      s.lens ? [{ ...jsonFinding(s.lens), ...suppressionFields(s) }] : [],
    ),
    below_min_priority: belowJson(result.belowMinPriority, (result.belowMinPriority?.lens ?? []).map(jsonFinding)),
    noiseDropped: result.noiseDropped ?? {},
    mode: 'lenses',
    missingReviewers: result.missingReviewers,
    models: result.models,
    lowConfidenceDropped: result.lowConfidence,
    repositories: result.targets.map((t) => ({
      path: t.repository,
      scope: t.description,
      reviewers: t.reviewers,
      missingReviewers: t.missingReviewers,
      files: t.files,
    })),
    skippedRepositories: result.skippedRepositories,
    spec: result.spec,
    rubric: result.rubric && {
      file: result.rubric.path,
      criteria: result.rubric.criteria.length,
      passed: result.rubric.passed,
      failed: result.rubric.failed,
      items: result.rubric.criteria.map((c) => ({ line: c.line, text: c.text, status: c.status })),
    },
    // Reviewers and the cross-repo check send the run's effort; validators none (lenses/calls.ts).
    usage: {
      ...jsonUsage(result.usage),
      effort: Object.fromEntries(Object.keys(result.models).map((r) => [r, r === 'validator' ? null : result.effort])),
    },
    report_path: meta.reportPath,
  };
}

function jsonFinding(f: MergedFinding): z.infer<typeof LensJsonFinding> {
  return {
    severity: f.severity,
    file: f.file,
    line: f.line,
    title: f.title,
    evidence: f.evidence,
    recommendation: f.recommendation,
    confidence: f.confidence,
    reviewers: f.reviewers,
    repository: f.repository,
    ...(f.validated !== undefined ? { validated: f.validated } : {}),
    ...(f.validationReason !== undefined ? { validationReason: f.validationReason } : {}),
    ...(f.originalSeverity ? { originalSeverity: f.originalSeverity } : {}),
    ...(f.preExisting ? { preExisting: true } : {}),
    category: f.category ?? null,
  };
}
