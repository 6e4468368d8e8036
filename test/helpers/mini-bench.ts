/**
 * A synthetic mini benchmark in the Martian format: three small PRs of one project in a local bare git
 * repository (pull requests as refs/pull/N/head, reached through a file:// URL like a GitHub remote), a
 * fourth PR that does not exist, and golden comments for each — plus what the fake API should find and
 * judge for them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  /** A bare repository holding offline/golden_comments/ like the benchmark's own, for the downloader. */
  benchmarkRepo: string;
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

  const bench = new TempRepo();
  bench
    .write('offline/golden_comments/shop.json', JSON.stringify(records, null, 2))
    .write('offline/README.md', 'not data\n')
    .commit('data');
  const benchmarkRepo = join(root, 'git', 'benchmark.git');
  execFileSync('git', ['clone', '-q', '--bare', bench.dir, benchmarkRepo]);
  return { root, data, urls, base, heads, benchmarkRepo };
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
