/**
 * A synthetic mini benchmark in the Martian format: three small PRs of one project in a local bare git
 * repository (pull requests as refs/pull/N/head, reached through a file:// URL like a GitHub remote), a
 * fourth PR that does not exist, and golden comments for each — plus what the fake API should find and
 * judge for them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Scenario } from '../fake-anthropic/scenario';
import { TempRepo } from './git-repo';

const source = (name: string, body: string[]) => [`// ${name}: a small module under review`, ...body, ''].join('\n');
const BASE: Record<string, string> = {
  'src/a.ts': source('a', [
    'export function sum(xs: number[]): number {',
    '  let s = 0;',
    '  for (const x of xs) s += x;',
    '  return s;',
    '}',
  ]),
  'src/b.ts': source('b', [
    'export function find(db: { query(q: string): unknown }, id: string): unknown {',
    '  return db.query("SELECT 1");',
    '}',
  ]),
  'src/c.ts': source('c', ['export const greeting = "hello";']),
};
const PRS: Record<number, [string, string]> = {
  1: [
    'src/a.ts',
    source('a', [
      'export function sum(xs: number[] | null): number {',
      '  let s = 0;',
      '  for (let i = 0; i <= xs!.length; i++) {',
      '    s += xs![i];',
      '  }',
      '  return s;',
      '}',
    ]),
  ],
  2: [
    'src/b.ts',
    source('b', [
      'export function find(db: { query(q: string): unknown }, id: string): unknown {',
      '  const q = "SELECT * FROM users WHERE id = \'" + id + "\'";',
      '  const again = db.query(q);',
      '  return again;',
      '}',
      'export const table = "users";',
    ]),
  ],
  3: [
    'src/c.ts',
    source('c', [
      'export const greeting = "hello";',
      'export function greet(name: string): string {',
      '  const text = greeting + ", " + name;',
      '  return text;',
      '}',
    ]),
  ],
};

export interface MiniBench {
  root: string;
  /** The benchmark data folder (golden comments). */
  data: string;
  urls: string[];
  /** The commit the PRs branched from, and each PR's head (PR n at index n - 1). */
  base: string;
  heads: string[];
  /** A bare repository laid out like the benchmark's own (offline/golden_comments/, results/, …), for the downloader. */
  benchmarkRepo: string;
  /** Its one commit. */
  benchmarkCommit: string;
  /** The same tree as a plain folder, and its data folder (`--data`): the judge prompt and results beside it. */
  tree: string;
  treeData: string;
}

/** The benchmark's judging step, shaped like the real one (a Python format string and a system line), in words of our own. */
export const MINI_JUDGE_STEP = [
  'import json',
  '',
  'JUDGE_PROMPT = """Synthetic judge prompt for tests.',
  '',
  'Expected issue:',
  '{golden_comment}',
  '',
  'Reviewer issue:',
  '{candidate}',
  '',
  'Reply as {{"reasoning": "why", "match": true/false, "confidence": 0.0-1.0}}"""',
  '',
  '',
  'def call(prompt):',
  '    return {',
  '        "messages": [',
  '            {',
  '                "role": "system",',
  '                "content": "Synthetic system line: answer in \\"JSON\\".",',
  '            },',
  '            {"role": "user", "content": prompt},',
  '        ],',
  '    }',
  '',
].join('\n');

/** Published per-PR results of two tools under the default judge, over the four PRs (tp, fp, and which golden comments were found). */
function evaluations(records: Array<{ url: string; comments: Array<{ comment: string; severity: string }> }>) {
  const found: Record<string, number[][]> = { alpha: [[0], [0], [], []], beta: [[], [0], [0], []] };
  const fps: Record<string, number[]> = { alpha: [1, 0, 1, 0], beta: [2, 3, 0, 0] };
  return Object.fromEntries(
    records.map((r, i) => [
      r.url,
      Object.fromEntries(
        Object.keys(found).map((tool) => {
          const tps = r.comments.filter((_, g) => found[tool]![i]!.includes(g));
          const fns = r.comments.filter((_, g) => !found[tool]![i]!.includes(g));
          return [
            tool,
            {
              skipped: false,
              true_positives: tps.map((c) => ({ golden_comment: c.comment, severity: c.severity, confidence: 0.9 })),
              false_negatives: fns.map((c) => ({ golden_comment: c.comment, severity: c.severity })),
              false_positives: [],
              tp: tps.length,
              fp: fps[tool]![i],
              fn: fns.length,
              errors_count: 0,
            },
          ];
        }),
      ),
    ]),
  );
}

export function buildMiniBench(): MiniBench {
  const root = mkdtempSync(join(tmpdir(), 'skeptic-minibench-'));
  const bare = join(root, 'git', 'acme', 'shop.git');
  mkdirSync(bare, { recursive: true });
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  const work = new TempRepo();
  for (const [path, text] of Object.entries(BASE)) work.write(path, text);
  work.commit('base');
  const base = work.git('rev-parse', 'HEAD').trim();
  const heads: string[] = [];
  for (const [n, [path, text]] of Object.entries(PRS)) {
    work.git('checkout', '-q', '-b', `pr${n}`, 'main');
    work.write(path, text).commit(`PR ${n}`);
    heads.push(work.git('rev-parse', 'HEAD').trim());
    work.git('push', '-q', bare, `pr${n}:refs/pull/${n}/head`);
  }
  // The default branch moves on after the PRs branched off: the merge base is not its tip.
  work.git('checkout', '-q', 'main');
  work.write('README.md', 'A shop.\n').commit('docs');
  work.git('push', '-q', bare, 'main');

  const repoUrl = pathToFileURL(bare).href;
  const urls = [1, 2, 3, 4].map((n) => `${repoUrl}/pull/${n}`);
  const records = [
    {
      pr_title: 'Sum handles null',
      url: urls[0],
      comments: [
        { comment: 'The loop runs one past the end (off-by-one).', severity: 'High' },
        { comment: 'xs may be null but is dereferenced.', severity: 'Medium' },
      ],
    },
    {
      pr_title: 'Find by id',
      url: urls[1],
      original_url: 'https://example.invalid/ignored',
      comments: [{ comment: 'User input is concatenated into SQL: injection.', severity: 'Critical' }],
    },
    { pr_title: 'Greeting', url: urls[2], comments: [{ comment: 'greet ignores locale settings.', severity: 'Low' }] },
    { pr_title: 'Missing', url: urls[3], comments: [{ comment: 'Never fetched.', severity: 'Low' }] },
  ];
  const data = join(root, 'data');
  mkdirSync(data);
  writeFileSync(join(data, 'shop.json'), JSON.stringify(records, null, 2));

  // PR 2 was recorded as touching two files; its checkout touches one: a moved head.
  const labels = Object.fromEntries(
    urls.map((url, i) => [url, { derived: { num_golden_comments: 1, num_files_touched: i === 1 ? 2 : 1 } }]),
  );
  const files: Record<string, string> = {
    'offline/golden_comments/shop.json': JSON.stringify(records, null, 2),
    'offline/results/pr_labels.json': JSON.stringify(labels, null, 2),
    'offline/results/anthropic_claude-opus-4-5-20251101/evaluations.json': JSON.stringify(evaluations(records)),
    'offline/results/openai_gpt-5.2/evaluations.json': '{}',
    'offline/analysis/benchmark_dashboard.json': JSON.stringify({ tool_display_names: { alpha: 'Alpha Bot' } }),
    'offline/code_review_benchmark/step3_judge_comments.py': MINI_JUDGE_STEP,
    'offline/README.md': 'not data\n',
  };
  const bench = new TempRepo();
  const tree = join(root, 'benchmark');
  for (const [path, text] of Object.entries(files)) {
    bench.write(path, text);
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  bench.commit('data');
  const benchmarkRepo = join(root, 'git', 'benchmark.git');
  execFileSync('git', ['clone', '-q', '--bare', bench.dir, benchmarkRepo]);
  const benchmarkCommit = bench.git('rev-parse', 'HEAD').trim();
  const treeData = join(tree, 'offline', 'golden_comments');
  return { root, data, urls, base, heads, benchmarkRepo, benchmarkCommit, tree, treeData };
}

/**
 * Lens-mode findings and judge answers: PR 1 needs the one-to-one assignment to find both pairs (its first
 * finding is the best answer to both golden comments), PR 2 has two findings for one golden comment, PR 3
 * has one finding the judge rejects.
 */
export const MINI_BENCH_SCENARIO: Scenario = {
  lenses: {
    logic: [
      {
        file: 'src/a.ts',
        line: 4,
        severity: 'HIGH',
        title: 'Loop reads past the end',
        evidence: 'i <= xs.length',
        recommendation: 'Stop at i < xs.length.',
      },
      {
        file: 'src/a.ts',
        line: 5,
        severity: 'HIGH',
        title: 'Index read past the array',
        evidence: 'xs[i] is undefined at the end',
        recommendation: 'Bound the index.',
      },
      {
        file: 'src/b.ts',
        line: 3,
        severity: 'CRITICAL',
        title: 'SQL injection',
        evidence: 'id is concatenated',
        recommendation: 'Use a parameter.',
      },
      {
        file: 'src/b.ts',
        line: 4,
        severity: 'HIGH',
        title: 'Unsafe query built from input',
        evidence: 'q carries id',
        recommendation: 'Bind id.',
      },
      {
        file: 'src/c.ts',
        line: 4,
        severity: 'HIGH',
        title: 'Greeting concatenation',
        evidence: 'string +',
        recommendation: 'Use a template.',
      },
    ],
  },
  judgements: [
    { golden: 'off-by-one', finding: 'src/a.ts:4', match: true, confidence: 0.9 },
    { golden: 'may be null', finding: 'src/a.ts:4', match: true, confidence: 0.6 },
    { golden: 'off-by-one', finding: 'src/a.ts:5', match: true, confidence: 0.8 },
    { golden: 'injection', finding: 'src/b.ts:3', match: true, confidence: 0.95 },
    { golden: 'injection', finding: 'src/b.ts:4', match: true, confidence: 0.7 },
  ],
};
