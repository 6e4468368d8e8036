import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutPull, parsePullUrl, pullSlug } from '../../src/eval/checkout';
import { git } from '../../src/eval/git';
import type { Judgement } from '../../src/eval/verdict';
import { AACR } from '../../src/eval/aacr/data';
import { dataCommit, fetchBenchmarkData } from '../../src/eval/data';
import { MARTIAN } from '../../src/eval/martian/data';
import { assign, matchOneToOne, placeAgrees, scores, sumTallies, tallyOf, type Matching } from '../../src/eval/score';
import type { Finding } from '../../src/model/finding';
import { TempRepo } from '../helpers/git-repo';
import { buildMiniBench } from '../helpers/mini-bench';
import { pathToFileURL } from 'node:url';

const yes = (golden: number, finding: number, confidence: number): Judgement => ({
  golden,
  finding,
  verdict: { match: true, confidence, reason: 'same' },
});
const no = (golden: number, finding: number): Judgement => ({
  golden,
  finding,
  verdict: { match: false, confidence: 0.9, reason: 'different' },
});

describe('eval: matching and scores', () => {
  it('matches one-to-one, as many pairs as the yes answers allow', () => {
    // Finding 0 is the best answer to both golden comments; only moving golden 0 to finding 1 matches both.
    const m = matchOneToOne([yes(0, 0, 0.9), yes(1, 0, 0.6), yes(0, 1, 0.8), no(1, 1)], 2);
    assert.deepEqual([...m].sort(), [
      [0, 1],
      [1, 0],
    ]);
  });

  it('lets a finding count once however many golden comments it answers', () => {
    assert.equal(matchOneToOne([yes(0, 0, 0.9), yes(1, 0, 0.9), yes(2, 0, 0.9)], 3).size, 1);
    assert.equal(matchOneToOne([yes(0, 0, 0.9), yes(0, 1, 0.9), yes(0, 2, 0.9)], 1).size, 1);
  });

  it('prefers the more confident pair when either would do', () => {
    assert.deepEqual([...matchOneToOne([yes(0, 0, 0.5), yes(0, 1, 0.95)], 1)], [[0, 1]]);
  });

  it('ignores no answers and failed judge calls', () => {
    assert.equal(matchOneToOne([no(0, 0), { golden: 0, finding: 1, verdict: null, error: 'timeout' }], 1).size, 0);
  });

  it("takes a finding at a golden comment's place only in its file and within one line of its range", () => {
    const at = (file: string, line: number, endLine?: number) =>
      ({ locations: [{ file, line, ...(endLine ? { endLine } : {}) }] }) as Finding;
    const golden = { text: 'x', group: 'g', location: { path: 'src/a.ts', side: 'right' as const, from: 10, to: 12 } };
    assert.deepEqual(
      [
        at('src/a.ts', 9),
        at('src/a.ts', 13),
        at('src/a.ts', 8),
        at('src/a.ts', 14),
        at('src/b.ts', 11),
        at('src/a.ts', 1, 9),
      ].map((f) => placeAgrees(golden, f)),
      [true, true, false, false, false, true],
    );
    assert.equal(placeAgrees({ ...golden, location: { ...golden.location, side: 'left' } }, at('src/a.ts', 400)), true);
    assert.equal(placeAgrees({ text: 'x', group: 'g' }, at('anything', 1)), true);
  });

  it('leaves precision undefined without candidates, and F1 undefined with it', () => {
    const t = (findings: number, golden: number, tp: number, fp: number) => ({
      findings,
      golden,
      matched: tp,
      tp,
      fp,
      fn: golden - tp,
    });
    assert.deepEqual(scores(t(0, 3, 0, 0)), { precision: null, recall: 0, f1: null });
    assert.deepEqual(scores(t(4, 2, 1, 3)), { precision: 0.25, recall: 0.5, f1: 1 / 3 });
    assert.deepEqual(scores(t(2, 2, 0, 2)), { precision: 0, recall: 0, f1: 0 });
  });
});

/**
 * One synthetic set, two PRs, the same judge answers, counted both ways; the expected figures are worked
 * out by hand in the comments.
 *   PR A: golden G0..G4, findings F0..F5; yes: G0–F0 0.9, G1–F0 0.8, G2–F1 0.9, G3–F2 0.6, and a no for G4–F3.
 *   PR B: golden H0..H3, findings E0..E3; yes: H0–E0 0.9, H1–E1 0.9.
 */
describe('eval: the two counting rules on one synthetic set', () => {
  const prA = [yes(0, 0, 0.9), yes(1, 0, 0.8), yes(2, 1, 0.9), yes(3, 2, 0.6), no(4, 3)];
  const prB = [yes(0, 0, 0.9), yes(1, 1, 0.9)];
  const total = (matching: Matching) =>
    sumTallies([tallyOf(assign(prA, 5, matching), 6, 5), tallyOf(assign(prB, 4, matching), 4, 4)]);

  it('martian: a golden comment is found by any yes; a finding is a false positive only without one', () => {
    // A: G0..G3 found (tp 4); F0, F1, F2 answered something, F3, F4, F5 did not (fp 3). B: tp 2, fp 2.
    const t = total('martian');
    assert.deepEqual([t.tp, t.fp, t.fn], [6, 5, 3]);
    const s = scores(t);
    // P = 6 / (6 + 5) = 54.5 %, R = 6 / 9 = 66.7 %, F1 = 2PR / (P + R) = 60.0 %.
    assert.equal(s.precision!.toFixed(3), '0.545');
    assert.equal(s.recall!.toFixed(3), '0.667');
    assert.equal(s.f1!.toFixed(3), '0.600');
  });

  it('one-to-one: F0 counts for G0 or G1, not both, and every finding left over is a false positive', () => {
    // A: three pairs (F0 with G0 or G1, F1–G2, F2–G3), fp 6 − 3 = 3. B: two pairs, fp 2.
    const t = total('one-to-one');
    assert.deepEqual([t.tp, t.fp, t.fn], [5, 5, 4]);
    const s = scores(t);
    // P = 5 / 10 = 50.0 %, R = 5 / 9 = 55.6 %, F1 = 52.6 %.
    assert.equal(s.precision!.toFixed(3), '0.500');
    assert.equal(s.recall!.toFixed(3), '0.556');
    assert.equal(s.f1!.toFixed(3), '0.526');
  });

  it('martian: two findings saying one true thing are both credited; a yes at confidence 0 is no match', () => {
    const dup = [yes(0, 0, 0.9), yes(0, 1, 0.7)];
    assert.deepEqual(tallyOf(assign(dup, 1, 'martian'), 2, 1), {
      findings: 2,
      golden: 1,
      matched: 1,
      tp: 1,
      fp: 0,
      fn: 0,
    });
    assert.deepEqual(tallyOf(assign(dup, 1, 'one-to-one'), 2, 1), {
      findings: 2,
      golden: 1,
      matched: 1,
      tp: 1,
      fp: 1,
      fn: 0,
    });
    // The shown match is the most confident one.
    assert.deepEqual([...assign(dup, 1, 'martian').matches], [[0, 0]]);
    assert.equal(assign([yes(0, 0, 0)], 1, 'martian').matches.size, 0);
  });
});

describe('eval: benchmark data', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'skeptic-evaldata-'));

  it('reads records in the benchmark format, extra fields and all', async () => {
    const d = dir();
    writeFileSync(
      join(d, 'b.json'),
      JSON.stringify([
        {
          pr_title: 'B',
          url: 'https://github.com/o/b/pull/2',
          az_comment: 'x',
          comments: [{ comment: 'c', severity: 'Critical' }],
        },
      ]),
    );
    writeFileSync(
      join(d, 'a.json'),
      JSON.stringify([{ pr_title: 'A', url: 'https://github.com/o/a/pull/7', original_url: null, comments: [] }]),
    );
    const cases = await MARTIAN.load(d);
    assert.deepEqual(
      cases.map((c) => [c.url, c.pull.repoUrl, c.pull.number, c.golden.length]),
      [
        ['https://github.com/o/a/pull/7', 'https://github.com/o/a', 7, 0],
        ['https://github.com/o/b/pull/2', 'https://github.com/o/b', 2, 1],
      ],
    );
  });

  it('reads AACR-Bench records: pinned commits, places, and a comment without a side on the PR side', async () => {
    const d = dir();
    const comment = {
      note: ' Null check missing. ',
      path: 'src/a.ts',
      from_line: 9,
      to_line: 7,
      category: 'Code Defect',
      is_ai_comment: false,
    };
    writeFileSync(join(d, 'negative_samples.json'), '[]');
    writeFileSync(
      join(d, 'positive_samples.json'),
      JSON.stringify([
        {
          githubPrUrl: 'https://github.com/o/r/pull/4',
          source_commit: 'a'.repeat(40),
          target_commit: 'b'.repeat(40),
          change_line_count: 3,
          comments: [comment, { ...comment, side: 'left' }],
        },
      ]),
    );
    const [c] = await AACR.load(d);
    assert.deepEqual(c!.pull, {
      repoUrl: 'https://github.com/o/r',
      number: 4,
      baseSha: 'a'.repeat(40),
      headSha: 'b'.repeat(40),
    });
    assert.deepEqual(c!.golden, [
      {
        text: 'Null check missing.',
        group: 'Code Defect',
        location: { path: 'src/a.ts', side: 'right', from: 7, to: 9 },
      },
      {
        text: 'Null check missing.',
        group: 'Code Defect',
        location: { path: 'src/a.ts', side: 'left', from: 7, to: 9 },
      },
    ]);
    const onlyNegative = dir();
    writeFileSync(join(onlyNegative, 'negative_samples.json'), '[]');
    await assert.rejects(AACR.load(onlyNegative), /holds no benchmark data \(positive_samples\.json\)/);
  });

  it('names the file and the place of a bad record', async () => {
    const d = dir();
    writeFileSync(
      join(d, 'x.json'),
      JSON.stringify([
        { pr_title: 'A', url: 'https://github.com/o/a/pull/1', comments: [{ comment: 'c', severity: 'Severe' }] },
      ]),
    );
    await assert.rejects(MARTIAN.load(d), /^Error: x\.json: \[0\]\.comments\[0\]\.severity: Invalid option/);
    writeFileSync(join(d, 'x.json'), JSON.stringify([{ pr_title: 'A', url: 'git@github.com:o/a.git', comments: [] }]));
    await assert.rejects(MARTIAN.load(d), /x\.json\[0\]: not a pull request URL/);
    writeFileSync(join(d, 'x.json'), '[{');
    await assert.rejects(MARTIAN.load(d), /x\.json: not valid JSON/);
    await assert.rejects(MARTIAN.load(join(d, 'none')), /no such data folder/);
  });

  it('downloads only the golden comments, once, and reads them offline after', async () => {
    const bench = buildMiniBench();
    const cache = dir();
    const folder = await fetchBenchmarkData(MARTIAN, cache, { source: pathToFileURL(bench.benchmarkRepo).href });
    assert.equal((await MARTIAN.load(folder)).length, 4);
    assert.equal(existsSync(join(cache, 'offline', 'README.md')), false, 'sparse: nothing outside the data folder');
    renameSync(bench.benchmarkRepo, `${bench.benchmarkRepo}.gone`);
    assert.equal(await fetchBenchmarkData(MARTIAN, cache, { source: pathToFileURL(bench.benchmarkRepo).href }), folder);
    await assert.rejects(
      fetchBenchmarkData(MARTIAN, dir(), { source: pathToFileURL(bench.benchmarkRepo).href }),
      /could not download the benchmark from file:.*; pass --data DIR/,
    );
  });

  it('downloads into a work folder that does not exist yet, and knows the commit it came from', async () => {
    const bench = buildMiniBench();
    const cache = join(dir(), 'work', 'data', 'martian');
    const folder = await fetchBenchmarkData(MARTIAN, cache, { source: pathToFileURL(bench.benchmarkRepo).href });
    assert.equal((await MARTIAN.load(folder)).length, 4);
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: bench.benchmarkRepo, encoding: 'utf8' }).trim();
    assert.equal(await dataCommit(folder, MARTIAN), head);
    assert.equal(await dataCommit(bench.data, MARTIAN), null, 'a folder that is not the benchmark checkout');
  });
});

/** `n` empty commits on main in one git process (one process per commit is slow on a loaded machine). */
function emptyCommits(repo: TempRepo, n: number): void {
  const stream = Array.from(
    { length: n },
    (_, i) =>
      `commit refs/heads/main\ncommitter T <t@example.com> ${i} +0000\ndata 2\n${i % 10}\n${i === 0 ? 'from refs/heads/main^0\n' : ''}\n`,
  ).join('');
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo.dir, input: stream });
  repo.git('reset', '-q', '--hard', 'main');
}

describe('eval: pull request checkouts', () => {
  it('parses pull request URLs and names folders after them', () => {
    assert.deepEqual(parsePullUrl('https://github.com/ai-code-review-evaluation/sentry-greptile/pull/3/'), {
      repoUrl: 'https://github.com/ai-code-review-evaluation/sentry-greptile',
      number: 3,
    });
    assert.equal(pullSlug(parsePullUrl('https://github.com/calcom/cal.com/pull/8087')), 'calcom-cal.com-8087');
    assert.throws(() => parsePullUrl('https://github.com/o/r/issues/3'), /not a pull request URL/);
  });

  it('deepens a shallow fetch until the PR and the default branch share a merge base', async function () {
    this.timeout(60_000);
    const work = new TempRepo();
    work.write('f.txt', 'one\n').commit('root');
    emptyCommits(work, 80); // old history a shallow fetch need not bring
    work.write('f.txt', 'one\nbase\n').commit('base');
    const forkPoint = work.git('rev-parse', 'HEAD').trim();
    work.git('checkout', '-q', '-b', 'pr');
    work.write('f.txt', 'one\ntwo\n').commit('change');
    work.git('checkout', '-q', 'main');
    // More commits on the default branch than the first shallow fetch brings.
    emptyCommits(work, 60);
    const bare = join(mkdtempSync(join(tmpdir(), 'skeptic-evalrepo-')), 'r.git');
    work.git('clone', '-q', '--bare', work.dir, bare);
    work.git('push', '-q', bare, 'pr:refs/pull/5/head');

    const dest = join(mkdtempSync(join(tmpdir(), 'skeptic-evalco-')), 'co');
    const co = await checkoutPull({ repoUrl: pathToFileURL(bare).href, number: 5 }, dest, {});
    assert.equal((await git(['merge-base', co.baseRef, 'HEAD'], { cwd: dest })).trim(), forkPoint);
    assert.equal((await git(['rev-parse', 'HEAD'], { cwd: dest })).trim(), co.headSha);
    assert.equal((await git(['rev-parse', '--is-shallow-repository'], { cwd: dest })).trim(), 'true');
    // A finished checkout is reused without the network.
    renameSync(bare, `${bare}.gone`);
    assert.deepEqual(await checkoutPull({ repoUrl: pathToFileURL(bare).href, number: 5 }, dest, {}), co);
  });
});
