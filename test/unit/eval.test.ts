import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutPull, parsePullUrl, pullSlug } from '../../src/eval/checkout';
import { git } from '../../src/eval/git';
import type { Judgement } from '../../src/eval/verdict';
import { AACR } from '../../src/eval/aacr/data';
import { checkCounts, dataCommit, fetchBenchmarkData } from '../../src/eval/data';
import { lifecycleNote } from '../../src/eval/judgeModels';
import { benchmarkJudge } from '../../src/eval/martian/judgePrompt';
import { publishedReference } from '../../src/eval/martian/results';
import { MARTIAN } from '../../src/eval/martian/data';
import {
  assign,
  matchOneToOne,
  placeAgrees,
  scores,
  sumTallies,
  tallyOf,
  tallyOfSome,
  type Matching,
} from '../../src/eval/score';
import type { Finding } from '../../src/model/finding';
import { TempRepo } from '../helpers/git-repo';
import { buildMiniBench, MINI_JUDGE_STEP } from '../helpers/mini-bench';
import { pathToFileURL } from 'node:url';

const yes = (golden: number, finding: number, confidence: number): Judgement => ({
  golden,
  finding,
  verdict: { reasoning: 'same', match: true, confidence },
});
const no = (golden: number, finding: number): Judgement => ({
  golden,
  finding,
  verdict: { reasoning: 'different', match: false, confidence: 0.9 },
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

  it('martian: a later yes that does not raise the best is a false positive; a yes at confidence 0 is no match', () => {
    const dup = [yes(0, 0, 0.9), yes(0, 1, 0.7)];
    assert.deepEqual(tallyOf(assign(dup, 1, 'martian'), 2, 1), {
      findings: 2,
      golden: 1,
      matched: 1,
      tp: 1,
      fp: 1,
      fn: 0,
    });
    // In the other order both yes answers raise the best: both are credited, the later one shown.
    const rising = [yes(0, 0, 0.7), yes(0, 1, 0.9)];
    assert.deepEqual(tallyOf(assign(rising, 1, 'martian'), 2, 1).fp, 0);
    assert.deepEqual([...assign(rising, 1, 'martian').matches], [[0, 1]]);
    assert.equal(assign([yes(0, 0, 0)], 1, 'martian').matches.size, 0);
    assert.equal(assign([yes(0, 0, 0)], 1, 'one-to-one').matches.size, 0, 'one-to-one: confidence 0 is no match');
  });
});

/**
 * The three-PR synthetic set (golden comments in data order, findings in review order), worked out
 * by hand with the benchmark's crediting. Judgements are given shuffled: the order is the rule's, not theirs.
 *   PR 1: G0 ← F0 0.8 then F1 0.9 (both raise: both credited); G1 ← F2 0.7 then F3 0.7 (a tie: F3 not
 *         credited); G2 never found; F4 answers nothing. TP 2, FN 1, FP 2 (F3, F4).
 *   PR 2: H0 ← E0 0.9 then E1 0.6 (E1 does not raise H0…); H1 ← E1 0.5 (…but credits H1); H2 ← E2 0.9;
 *         H3 ← E2 0.8 then E3 0.8 (a tie: E3 not credited); E4 says yes to H0 at confidence 0. TP 4, FN 0,
 *         FP 2 (E3, E4).
 *   PR 3: three golden comments, three findings, every answer no. TP 0, FN 3, FP 3.
 * Total TP 6, FP 7, FN 4: P 6/13 = 46.2 %, R 6/10 = 60.0 %, F1 52.2 %. Crediting every yes above 0
 * (F3 and E3 too) would give FP 5: 54.5 / 60.0 / 57.1.
 */
describe("eval: the benchmark's crediting on the issue's three-PR synthetic set", () => {
  const shuffle = (js: Judgement[]) =>
    js
      .map((j, i) => [((i * 7) % 11) + i / 100, j] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, j]) => j);
  const pr1 = [
    yes(0, 0, 0.8),
    yes(0, 1, 0.9),
    no(0, 2),
    no(0, 3),
    no(0, 4),
    no(1, 0),
    no(1, 1),
    yes(1, 2, 0.7),
    yes(1, 3, 0.7),
    no(1, 4),
    no(2, 0),
    no(2, 1),
    no(2, 2),
    no(2, 3),
    no(2, 4),
  ];
  const pr2 = [
    yes(0, 0, 0.9),
    yes(0, 1, 0.6),
    no(0, 2),
    no(0, 3),
    yes(0, 4, 0),
    no(1, 0),
    yes(1, 1, 0.5),
    no(1, 2),
    no(1, 3),
    no(1, 4),
    no(2, 0),
    no(2, 1),
    yes(2, 2, 0.9),
    no(2, 3),
    no(2, 4),
    no(3, 0),
    no(3, 1),
    yes(3, 2, 0.8),
    yes(3, 3, 0.8),
    no(3, 4),
  ];
  const pr3 = [0, 1, 2].flatMap((g) => [0, 1, 2].map((f) => no(g, f)));
  const prs: Array<[Judgement[], number, number]> = [
    [pr1, 5, 3],
    [pr2, 5, 4],
    [pr3, 3, 3],
  ];

  it('counts TP 6 / FP 7 / FN 4 = P 46.2, R 60.0, F1 52.2', () => {
    const t = sumTallies(
      prs.map(([js, findings, golden]) => tallyOf(assign(shuffle(js), golden, 'martian'), findings, golden)),
    );
    assert.deepEqual([t.tp, t.fp, t.fn], [6, 7, 4]);
    const s = scores(t);
    assert.deepEqual(
      [s.precision, s.recall, s.f1].map((r) => (100 * r!).toFixed(1)),
      ['46.2', '60.0', '52.2'],
    );
  });

  it('scores a priority cut and the main findings from the same judgements, recall over every golden comment', () => {
    // PR 2 without E0: H0's best is then E1's 0.6, so E1 is credited by H0 too; golden stays 4.
    const t = tallyOfSome(pr2, 5, (f) => f !== 0, 4, 'martian');
    assert.deepEqual(t, { findings: 4, golden: 4, matched: 4, tp: 4, fp: 2, fn: 0 });
    // Only F4 of PR 1 kept: nothing credited, every golden comment still counted.
    assert.deepEqual(
      tallyOfSome(pr1, 5, (f) => f === 4, 3, 'martian'),
      { findings: 1, golden: 3, matched: 0, tp: 0, fp: 1, fn: 3 },
    );
  });

  it("under a profile, counts only its golden comments found or missed, and every finding's false positive", () => {
    // PR 1 with G0 out of the profile: G1 found, G2 missed; F0 and F1 (credited by G0) are still no false positives.
    const t = tallyOf(assign(pr1, 3, 'martian'), 5, 3, (g) => g !== 0);
    assert.deepEqual(t, { findings: 5, golden: 2, matched: 1, tp: 1, fp: 2, fn: 1 });
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

  it('downloads the data at the commit asked for, and what a run reads beside it, once, and reads them offline after', async () => {
    const bench = buildMiniBench();
    const cache = dir();
    const at = { source: pathToFileURL(bench.benchmarkRepo).href, ref: bench.benchmarkCommit };
    const folder = await fetchBenchmarkData(MARTIAN, cache, at);
    assert.equal((await MARTIAN.load(folder)).length, 4);
    assert.equal(await dataCommit(folder, MARTIAN), bench.benchmarkCommit);
    const offline = join(folder, '..');
    assert.equal(existsSync(join(offline, 'README.md')), false, 'sparse: nothing a run does not read');
    for (const read of [
      'results/pr_labels.json',
      'results/anthropic_claude-opus-4-5-20251101/evaluations.json',
      'code_review_benchmark/step3_judge_comments.py',
    ])
      assert.ok(existsSync(join(offline, read)), read);
    renameSync(bench.benchmarkRepo, `${bench.benchmarkRepo}.gone`);
    assert.equal(await fetchBenchmarkData(MARTIAN, cache, at), folder, 'a commit already here is not fetched again');
    await assert.rejects(
      fetchBenchmarkData(MARTIAN, dir(), at),
      /could not download the benchmark at [0-9a-f]{40} from file:.*; pass --data DIR/,
    );
  });

  it('fetches the pinned commit by default, into a work folder that does not exist yet', async () => {
    const bench = buildMiniBench();
    const cache = join(dir(), 'work', 'data', 'martian');
    await assert.rejects(
      fetchBenchmarkData(MARTIAN, cache, { source: pathToFileURL(bench.benchmarkRepo).href }),
      new RegExp(`could not download the benchmark at ${MARTIAN.pinned!.ref}`),
    );
    const folder = await fetchBenchmarkData(MARTIAN, cache, {
      source: pathToFileURL(bench.benchmarkRepo).href,
      ref: 'main',
    });
    assert.equal(await dataCommit(folder, MARTIAN), bench.benchmarkCommit);
    assert.equal(await dataCommit(bench.data, MARTIAN), null, 'a folder that is not the benchmark checkout');
  });

  it('refuses pinned data whose counts are not the pinned ones, naming both', async () => {
    const cases = await MARTIAN.load(buildMiniBench().treeData);
    assert.throws(
      () => checkCounts(MARTIAN, cases),
      /the benchmark data at 012d682 should hold 50 PRs and 137 golden comments, but holds 4 PRs and 5 comments/,
    );
    assert.doesNotThrow(() => checkCounts({ pinned: { ref: 'x', prs: 4, comments: 5 } }, cases));
  });

  it('reads the files each PR touched from pr_labels.json, and categories when the data has them', async () => {
    const bench = buildMiniBench();
    const cases = await MARTIAN.load(bench.treeData);
    assert.deepEqual(
      cases.map((c) => c.filesRecorded),
      [1, 2, 1, 1],
    );
    assert.deepEqual(
      (await MARTIAN.load(bench.data)).map((c) => c.filesRecorded),
      [undefined, undefined, undefined, undefined],
    );
    const d = dir();
    writeFileSync(
      join(d, 'a.json'),
      JSON.stringify([
        {
          pr_title: 'A',
          url: 'https://github.com/o/a/pull/1',
          comments: [{ comment: 'c', severity: 'Low', category: 'style' }],
        },
      ]),
    );
    assert.deepEqual((await MARTIAN.load(d))[0]!.golden, [{ text: 'c', group: 'Low', category: 'style' }]);
  });
});

describe("eval: the benchmark's judge prompt, published results and judge lifecycle", () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'skeptic-evalpub-'));

  it("reads the judge prompt and system line from the benchmark's judging step, as a Python format string", async () => {
    const judge = (await benchmarkJudge(join(buildMiniBench().treeData, '..')))!;
    assert.equal(judge.system, 'Synthetic system line: answer in "JSON".');
    assert.equal(
      judge.user('G {x}', 'C'),
      [
        'Synthetic judge prompt for tests.',
        '',
        'Expected issue:',
        'G {x}',
        '',
        'Reviewer issue:',
        'C',
        '',
        'Reply as {"reasoning": "why", "match": true/false, "confidence": 0.0-1.0}',
      ].join('\n'),
    );
    assert.match(judge.source, /step3_judge_comments\.py/);
    assert.equal(await benchmarkJudge(dir()), null, 'no judging step: none');
    const bad = dir();
    mkdirSync(join(bad, 'code_review_benchmark'));
    writeFileSync(
      join(bad, 'code_review_benchmark', 'step3_judge_comments.py'),
      MINI_JUDGE_STEP.replace('{candidate}', '{other}'),
    );
    await assert.rejects(benchmarkJudge(bad), /the judge prompt has no \{candidate\} slot/);
    writeFileSync(join(bad, 'code_review_benchmark', 'step3_judge_comments.py'), 'print(1)\n');
    await assert.rejects(benchmarkJudge(bad), /the judge prompt \(JUDGE_PROMPT\) or its system line was not found/);
  });

  it('works out published figures on exactly the PRs scored, for the judge used, against the same golden set', async () => {
    const bench = buildMiniBench();
    const offline = join(bench.treeData, '..');
    const cases = await MARTIAN.load(bench.treeData);
    const ref = await publishedReference(offline, 'claude-opus-4-5-20251101', cases.slice(0, 2), null, 'abcdef0123');
    assert.ok(!('none' in ref));
    assert.equal(ref.prs, 2);
    assert.match(ref.source, /at abcdef0, offline\/results\/anthropic_claude-opus-4-5-20251101\/evaluations\.json/);
    // Alpha Bot: tp 2, fp 1, fn 1 → 66.7 / 66.7 / 66.7; beta: tp 1, fp 5, fn 2 → 16.7 / 33.3 / 22.2.
    assert.deepEqual(
      ref.scores.map((r) => [r.tool, ...[r.precision, r.recall, r.f1].map((x) => (100 * x!).toFixed(1))]),
      [
        ['Alpha Bot', '66.7', '66.7', '66.7'],
        ['beta', '16.7', '33.3', '22.2'],
      ],
    );
    const other = await publishedReference(offline, 'claude-sonnet-4-5-20250929', cases, null, null);
    assert.deepEqual(other, {
      none: 'the benchmark publishes no results judged by claude-sonnet-4-5-20250929 (judges with results: anthropic_claude-opus-4-5-20251101, openai_gpt-5.2)',
    });
    const changed = [{ ...cases[0]!, golden: [{ text: 'Another comment.', group: 'Low' }] }];
    assert.match(
      ((await publishedReference(offline, 'claude-opus-4-5-20251101', changed, null, null)) as { none: string }).none,
      /judged .*\/pull\/1 against other golden comments \(2 there, 1 here\)/,
    );
    const unknown = [{ ...cases[0]!, url: 'https://github.com/o/r/pull/9' }];
    assert.match(
      ((await publishedReference(offline, 'claude-opus-4-5-20251101', unknown, null, null)) as { none: string }).none,
      /has no results for https:\/\/github\.com\/o\/r\/pull\/9/,
    );
  });

  it('scores the published results under a profile: only its golden comments count as found or missed', async () => {
    const bench = buildMiniBench();
    const cases = await MARTIAN.load(bench.treeData);
    // PR 1's off-by-one comment (which Alpha found) is style: out of the strict profile.
    const categorised = [
      { ...cases[0]!, golden: cases[0]!.golden.map((g, i) => ({ ...g, category: i === 0 ? 'style' : 'bug' })) },
    ];
    const ref = await publishedReference(
      join(bench.treeData, '..'),
      'claude-opus-4-5-20251101',
      categorised,
      'strict',
      null,
    );
    assert.ok(!('none' in ref));
    const alpha = ref.scores.find((r) => r.tool === 'Alpha Bot')!;
    // tp 0 (its one find is out of the profile), fp 1 all the same, fn 1.
    assert.deepEqual([alpha.precision, alpha.recall, alpha.f1], [0, 0, 0]);
  });

  it("says a deprecated or retired judge model's end of life", () => {
    assert.equal(lifecycleNote('claude-opus-4-5-20251101', new Date('2026-11-01')), null);
    assert.match(
      lifecycleNote('claude-opus-4-5-20251101', new Date('2026-12-06'))!,
      /is deprecated and retires on 2027-01-22/,
    );
    assert.match(
      lifecycleNote('claude-opus-4-5-20251101', new Date('2027-01-22'))!,
      /was retired on 2027-01-22: its calls will fail/,
    );
    assert.equal(lifecycleNote('claude-opus-5-5', new Date('2027-06-01')), null);
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
