import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LensResult } from '../../src/model/events';
import type { MergedFinding } from '../../src/model/lens';
import { markRubric } from '../../src/engine/lenses/rubric';
import { emptyUsage } from '../../src/model/usage';
import { LensJsonReport, lensJson } from '../../src/report/lensJson';
import { renderLensReport } from '../../src/report/lensMarkdown';

// esbuild bundles this file to out/test/unit/; the golden file stays in the source tree.
const GOLDEN = join(__dirname, '../../../test/unit/golden/lens-report.md');

const finding = (over: Partial<MergedFinding>): MergedFinding => ({
  severity: 'MEDIUM',
  file: 'shop/cart.ts',
  line: 1,
  title: 'A finding',
  evidence: 'Evidence.',
  recommendation: 'Do something.',
  confidence: 4,
  reviewers: ['logic'],
  repository: null,
  category: null,
  ...over,
});

function sampleResult(): LensResult {
  const lensFindings = [
    finding({
      severity: 'CRITICAL',
      file: 'shop/auth.ts',
      line: 12,
      title: 'SQL built from request input',
      evidence: 'The query concatenates `req.query.id`.',
      recommendation: 'Use a parameterised query.',
      confidence: 5,
      reviewers: ['security'],
      validated: true,
      validationReason: 'Input reaches the query unescaped.',
    }),
    finding({
      severity: 'HIGH',
      line: 17,
      title: 'Loop reads past the end',
      evidence: '(logic) `i <= length` reads items[length]. (performance) The loop recomputes rounding.',
      recommendation: 'Loop while i < length.',
      confidence: 5,
      reviewers: ['logic', 'performance'],
      validated: 'timeout',
      validationReason: 'model call failed: request timed out',
    }),
    finding({
      severity: 'MEDIUM',
      line: 26,
      title: 'Save failure swallowed',
      evidence: 'The catch block is empty.',
      recommendation: 'Propagate the store error.',
      reviewers: ['silent-failures', 'logic'],
    }),
    finding({
      severity: 'LOW',
      file: 'shop/price.ts',
      line: 3,
      title: 'Float rounding of halves',
      evidence: 'Math.round on binary floats.',
      recommendation: 'Round in integer cents.',
      confidence: 3,
      reviewers: ['logic'],
    }),
    finding({
      severity: 'INFO',
      file: 'shop/price.ts',
      line: 11,
      title: 'NaN on malformed price',
      evidence: 'Number() of bad text is NaN.',
      recommendation: 'Reject malformed text.',
      reviewers: ['logic'],
      validated: false,
      validationReason: 'Callers validate the text first.',
      originalSeverity: 'HIGH',
    }),
  ];
  const counts = { critical: 1, high: 1, medium: 1, low: 1, info: 1 };
  return {
    mode: 'lenses',
    scope: 'shop',
    reviewRoots: ['shop'],
    files: ['shop/auth.ts', 'shop/cart.ts', 'shop/price.ts'].map((path) => ({
      path,
      companion_path: null,
      status: 'reviewed',
      functions_reviewed: 0,
    })),
    models: {
      security: 'claude-opus-5-5',
      logic: 'claude-opus-5-5',
      'silent-failures': 'claude-sonnet-5-5',
      validator: 'claude-haiku-5-5',
    },
    effort: 'xhigh',
    targets: [
      {
        repository: null,
        description: 'shop',
        files: ['shop/auth.ts', 'shop/cart.ts', 'shop/price.ts'],
        routing: [
          { reviewer: 'security', routed: true, reason: 'always runs' },
          { reviewer: 'logic', routed: true, reason: 'always runs' },
          { reviewer: 'performance', routed: true, reason: 'always runs' },
          { reviewer: 'silent-failures', routed: true, reason: 'error handling in 1 file' },
          { reviewer: 'comments', routed: false, reason: '3 files (needs > 10)' },
        ],
        reviewers: ['security', 'logic', 'performance', 'silent-failures'],
        missingReviewers: ['performance'],
        parts: 1,
      },
    ],
    reviewers: ['security', 'logic', 'performance', 'silent-failures'],
    missingReviewers: ['performance'],
    lensFindings,
    crossRepo: [],
    findings: [],
    lowConfidence: { logic: 2, security: 1 },
    outsideChange: 0,
    validation: {
      performed: true,
      preValidation: { critical: 1, high: 2 },
      postValidation: { critical: 1, high: 1 },
      rejected: 1,
      timeouts: 1,
    },
    gateCheck: { passed: true, reason: null },
    skippedRepositories: [],
    spec: 'docs/spec.md',
    rubric: markRubric(
      'docs/rubric.md',
      '- [ ] Totals are exact (Evaluator: skeptic)\n- [ ] Docs (Evaluator: human)',
      counts,
    ),
    failed: [
      {
        step: 'performance',
        file: null,
        unit: 'lens performance',
        reason: 'reply rejected after 2 repair turns: the reply is not valid JSON',
      },
    ],
    usage: {
      ...emptyUsage(),
      calls: 9,
      input_tokens: 1200,
      output_tokens: 300,
      cache_read_input_tokens: 6000,
      cache_creation_input_tokens: 2800,
      cost_usd: null,
    },
    usageByStep: {},
    retries: 1,
    failedAttempts: 1,
    repairs: 2,
    cacheHits: 0,
  };
}

function multiRepo(): LensResult {
  const base = sampleResult();
  const target = (repository: string) => ({
    ...base.targets[0]!,
    repository,
    description: `uncommitted changes in ${repository}`,
    files: [`${repository}/src/a.ts`],
    missingReviewers: [],
  });
  return {
    ...base,
    scope: 'uncommitted changes in api, web',
    targets: [target('api'), target('web')],
    missingReviewers: [],
    failed: [],
    lensFindings: [finding({ file: 'api/src/a.ts', repository: 'api', title: 'API finding' })],
    crossRepo: [
      finding({
        severity: 'HIGH',
        file: 'api/src/a.ts',
        line: 2,
        repository: 'api',
        reviewers: ['cross-repo'],
        title: 'Renamed field not updated in web',
      }),
    ],
  };
}

describe('lens markdown report', () => {
  it('matches the golden file', async () => {
    const text = renderLensReport(sampleResult(), { name: 'shop', date: '2026-11-30' });
    if (process.env.UPDATE_GOLDEN) await writeFile(GOLDEN, text);
    assert.equal(text, await readFile(GOLDEN, 'utf8'));
  });

  it('has the seed sections in order, and names the missing reviewer', () => {
    const text = renderLensReport(sampleResult(), { name: 'shop', date: '2026-11-30' });
    const order = [
      '# Code Review Report',
      '## Summary',
      '## Critical Findings',
      '## High-Priority Findings',
      '## Medium & Low Findings',
      '## Per-File Summary',
      '## Recommendations',
      '## Review Notes',
    ];
    const at = order.map((h) => text.indexOf(`${h}\n`));
    assert.ok(
      at.every((i, k) => i >= 0 && (k === 0 || i > at[k - 1]!)),
      at.join(','),
    );
    assert.match(text, /\*\*Missing reviewers\*\*: performance/);
    assert.match(text, /\| Before validation \| 1 \| 2 \|\n\| After validation \| 1 \| 1 \|/);
  });

  it('writes a section per repository and the cross-repo issues for a multi-repo run', () => {
    const text = renderLensReport(multiRepo(), { name: 'cross-repo', date: '2026-11-30' });
    assert.match(text, /^# Cross-Repo Code Review Report$/m);
    const [api, web, cross] = ['## Repository: api', '## Repository: web', '## Cross-Repo Issues'].map((h) =>
      text.indexOf(h),
    );
    assert.ok(api! > 0 && web! > api! && cross! > web!);
    assert.match(text.slice(api!, web!), /API finding/);
    assert.match(text.slice(web!, cross!), /No findings\./);
    assert.match(text.slice(cross!), /Renamed field not updated in web/);
  });
});

describe('lens JSON report', () => {
  it('validates against the schema, with post-validation counts and the seed fields', () => {
    const json = lensJson(sampleResult(), { date: '2026-11-30', reportPath: 'code-review-shop.md' });
    const parsed = LensJsonReport.safeParse(json);
    assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues));
    assert.equal(json.version, '1.1');
    assert.deepEqual(json.summary, { total: 5, critical: 1, high: 1, medium: 1, low: 1, info: 1 });
    assert.deepEqual(json.validation, {
      performed: true,
      preValidation: { critical: 1, high: 2 },
      postValidation: { critical: 1, high: 1 },
      rejected: 1,
      timeouts: 1,
    });
    assert.deepEqual(
      json.findings.map((f) => f.validated),
      [true, 'timeout', undefined, undefined, false],
    );
    assert.equal(json.findings[4]!.originalSeverity, 'HIGH');
    assert.deepEqual(json.missingReviewers, ['performance']);
    assert.deepEqual(json.rubric, {
      file: 'docs/rubric.md',
      criteria: 1,
      passed: 0,
      failed: 1,
      items: [{ line: 1, text: 'Totals are exact (Evaluator: skeptic)', status: 'FAIL' }],
    });
  });

  it('rejects what the seed format forbids', () => {
    const json = lensJson(sampleResult(), { date: '2026-11-30', reportPath: null });
    assert.ok(!LensJsonReport.safeParse({ ...json, version: 1 }).success);
    assert.ok(!LensJsonReport.safeParse({ ...json, date: '30/11/2026' }).success);
    assert.ok(!LensJsonReport.safeParse({ ...json, findings: [{ ...json.findings[0], validated: 'maybe' }] }).success);
  });

  it('carries the repository of each finding and includes cross-repo findings', () => {
    const json = lensJson(multiRepo(), { date: '2026-11-30', reportPath: null });
    assert.ok(LensJsonReport.safeParse(json).success);
    assert.deepEqual(
      json.findings.map((f) => [f.repository, f.reviewers[0]]),
      [
        ['api', 'cross-repo'],
        ['api', 'logic'],
      ],
    );
    assert.deepEqual(
      json.repositories.map((r) => r.path),
      ['api', 'web'],
    );
  });
});
