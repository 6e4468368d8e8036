import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StagedResult } from '../../src/model/events';
import { emptyUsage } from '../../src/model/usage';
import { StagedJsonReport, stagedJson } from '../../src/report/json';
import { findingLine, renderStagedReport } from '../../src/report/markdown';
import { scopeName, scopeSlug, versionedName, writeNewReport } from '../../src/report/naming';
import { finding, step1 } from '../helpers/records';

// esbuild bundles this file to out/test/unit/; the golden file stays in the source tree.
const GOLDEN = join(__dirname, '../../../test/unit/golden/staged-report.md');

function sampleResult(): StagedResult {
  const analysis = (path: string) => ({
    file_path: path,
    brutal_one_line: `${path} keeps the cart.`,
    invariants: [],
    risk_flags: [],
    file_level_findings: [],
    functions: [],
  });
  return {
    mode: 'staged',
    effort: { curate: null, analyze: null, review: 'high', challenge: 'high', synthesize: null },
    models: {
      curate: 'claude-sonnet-5-5',
      analyze: 'claude-sonnet-5-5',
      review: 'claude-sonnet-5-5',
      challenge: 'claude-opus-5-5',
      synthesize: 'claude-opus-5-5',
    },
    reviewRoots: ['shop'],
    files: [
      {
        path: 'shop/cart.ts',
        companion_path: 'shop/cart.test.ts',
        status: 'reviewed',
        functions_reviewed: 4,
        step1: step1(),
        analysis: analysis('shop/cart.ts'),
      },
      {
        path: 'shop/price.ts',
        companion_path: null,
        status: 'reviewed',
        functions_reviewed: 2,
        step1: step1(),
        analysis: analysis('shop/price.ts'),
      },
      {
        path: 'shop/README.md',
        companion_path: null,
        status: 'skipped',
        functions_reviewed: 0,
        reason: 'classified as documentation (review_as skip)',
      },
      {
        path: 'shop/tax.ts',
        companion_path: null,
        status: 'failed',
        functions_reviewed: 0,
        reason: 'analyze: model call failed: HTTP 500: boom',
      },
    ],
    findings: [
      finding({
        file: 'shop/cart.ts',
        line: 14,
        function: 'Cart.total',
        action: 'Guard the empty cart before indexing items[0].',
        rationale: 'An empty cart throws a TypeError.',
      }),
      finding({
        file: 'shop/cart.ts',
        line: 30,
        rule_id: 'A5',
        priority: 'should_fix',
        function: 'Cart.save',
        action: 'Propagate the write error.',
        rationale: 'A failed save reports success.',
        unchallenged: true,
      }),
      finding({
        file: 'shop/price.ts',
        line: 3,
        rule_id: 'F1',
        priority: 'nice_to_have',
        function: null,
        source: 'file_rule',
        action: 'Document round().',
        rationale: 'Its rounding mode is not obvious.',
      }),
      {
        ...finding({
          file: 'shop/cart.ts',
          line: 8,
          rule_id: 'G1',
          priority: 'should_fix',
          function: null,
          source: 'cross_file',
        }),
        locations: [
          { file: 'shop/cart.ts', line: 8 },
          { file: 'shop/price.ts', line: 2 },
        ],
        action: 'Extract the shared rounding into one helper.',
        rationale: 'A fix to one copy would miss the other.',
      },
    ],
    filtered: [{ finding: finding(), stage: 'challenge', reason: 'Guarded by the caller.' }],
    failed: [
      { step: 'analyze', file: 'shop/tax.ts', unit: 'shop/tax.ts', reason: 'model call failed: HTTP 500: boom' },
    ],
    synthesis: {
      verdict_one_line: 'A small cart module with one real crash path.',
      executive_summary: 'The cart and pricing code is compact.',
      file_groups: [{ group_name: 'Cart', group_description: 'Holds items.', file_paths: ['shop/cart.ts'] }],
      file_profiles: [{ file_path: 'shop/cart.ts', profile: 'The cart: items and totals.' }],
      cross_cutting_analysis: 'Rounding is duplicated.',
      cross_file_findings: [],
    },
    usage: {
      ...emptyUsage(),
      calls: 12,
      input_tokens: 1000,
      output_tokens: 200,
      cache_read_input_tokens: 500,
      cache_creation_input_tokens: 300,
      cost_usd: 0.4237,
    },
    usageByStep: {},
    retries: 1,
    failedAttempts: 1,
    repairs: 2,
    cacheHits: 3,
    recovered: 1,
    notes: ['cross-file finding G2 "Rename" left out: locations.0: "shop/x.ts" is not one of the reviewed files'],
  };
}

describe('staged markdown report', () => {
  it('matches the golden file', async () => {
    const text = renderStagedReport(sampleResult(), { name: 'shop', date: '2026-11-30' });
    if (process.env.UPDATE_GOLDEN) await writeFile(GOLDEN, text);
    assert.equal(text, await readFile(GOLDEN, 'utf8'));
  });

  it('numbers findings across priority sections, one line each', () => {
    const text = renderStagedReport(sampleResult(), { name: 'shop', date: '2026-11-30' });
    const items = text.split('\n').filter((l) => /^\d+\. /.test(l));
    assert.deepEqual(
      items.map((l) => l.split('.')[0]),
      ['1', '2', '3', '4'],
    );
    assert.ok(text.indexOf('### Must fix') < text.indexOf('### Should fix'));
    assert.ok(text.indexOf('### Should fix') < text.indexOf('### Nice to have'));
  });

  it('says the code is clean when no finding survives', () => {
    const text = renderStagedReport({ ...sampleResult(), findings: [] }, { name: 'shop', date: '2026-11-30' });
    assert.match(text, /No findings\. The reviewed code is clean\./);
    assert.match(text, /2 files \/ 6 functions reviewed clean\./);
  });

  it('formats a finding as `file:line` - action (rationale)', () => {
    assert.equal(
      findingLine(finding({ file: 'a.ts', line: 3, action: 'Fix it.', rationale: 'It breaks.' })),
      '`a.ts:3` - Fix it (It breaks) [A1 Bugs]',
    );
  });
});

describe('JSON result', () => {
  it('validates against the contract schema and carries relative paths', () => {
    const json = stagedJson(sampleResult(), 'code-review-shop.md');
    assert.ok(StagedJsonReport.safeParse(json).success);
    assert.equal(json.model, 'claude-sonnet-5-5');
    assert.deepEqual(
      Object.keys(json.findings[0]!).sort(),
      [
        'action',
        'category',
        'confidence',
        'file',
        'function',
        'line',
        'locations',
        'priority',
        'rationale',
        'rule_id',
      ].sort(),
    );
    assert.equal(json.files[2]!.reason, 'classified as documentation (review_as skip)');
    assert.ok(!('reason' in json.files[0]!));
  });

  it("a run the editor's plan billed (vscode-lm): cost_usd null, counts kept, the shape unchanged; the report says who bills", () => {
    const priced = stagedJson(sampleResult(), null);
    const result = sampleResult();
    result.usage = { ...result.usage, calls: 12, input_tokens: 5000, cost_usd: null, billing: 'editor' };
    const json = stagedJson(result, null);
    assert.ok(StagedJsonReport.strict().safeParse(json).success);
    assert.deepEqual(Object.keys(json.usage).sort(), Object.keys(priced.usage).sort());
    assert.equal(json.usage.cost_usd, null);
    assert.equal(json.usage.calls, 12);
    assert.equal(json.usage.input_tokens, 5000);
    const md = renderStagedReport(result, { name: 'shop', date: '2026-11-30' });
    assert.match(md, /12 model calls; tokens: 5000 input, .*; cost billed by the editor's plan/);
    assert.doesNotMatch(md, /price table/);
  });
});

describe('report naming', () => {
  it('slugs folder names and file stems', () => {
    assert.equal(scopeSlug('My Project'), 'my-project');
    assert.equal(scopeSlug('Café_v2'), 'cafe_v2');
    assert.equal(scopeSlug('∆∆'), 'review');
    assert.equal(scopeName(['.'], '/work/skeptic', false), 'skeptic');
    assert.equal(scopeName(['src/parse.cpp'], '/w', true), 'parse');
    assert.equal(scopeName(['lib/'], '/w', false), 'lib');
  });

  it('versions names and never overwrites an existing report', async () => {
    assert.equal(versionedName('/r/code-review-x.md', 3), '/r/code-review-x-v3.md');
    const dir = await mkdtemp(join(tmpdir(), 'skeptic-naming-'));
    const path = join(dir, 'code-review-x.md');
    assert.equal(await writeNewReport(path, 'one'), path);
    assert.equal(await writeNewReport(path, 'two'), join(dir, 'code-review-x-v2.md'));
    assert.equal(await writeNewReport(path, 'three'), join(dir, 'code-review-x-v3.md'));
    assert.equal(await readFile(path, 'utf8'), 'one');
    assert.deepEqual((await readdir(dir)).sort(), ['code-review-x-v2.md', 'code-review-x-v3.md', 'code-review-x.md']);
  });
});
