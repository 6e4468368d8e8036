import assert from 'node:assert/strict';
import {
  DEFAULT_INLINE_MIN,
  foldBelow,
  MAX_INLINE,
  planFixes,
  planPosting,
  postedFingerprints,
  topPath,
} from '../../src/app/ci/postingPlan';
import type { Finding } from '../../src/model/finding';
import {
  annotation,
  bodyItem,
  inert,
  inlineComment,
  markedFingerprints,
  MAX_BODY,
  reviewBody,
  summaryMarkdown,
} from '../../src/report/pullRequest';
import type { ReviewResult } from '../../src/model/events';
import { parseDiff } from '../../src/scope/diff';

function finding(file: string, line: number, extra: Partial<Finding> = {}): Finding {
  const fp = `${file}:${line}`.replace(/[^a-z0-9]/gi, '').toLowerCase();
  return {
    file,
    line,
    locations: [{ file, line }],
    rule_id: 'A1',
    priority: 'should_fix',
    confidence: 'high',
    function: null,
    action: 'Do it.',
    rationale: 'Because.',
    source: 'function_rule',
    fingerprint: Buffer.from(fp).toString('hex').padEnd(20, '0').slice(0, 20),
    ...extra,
  };
}

describe('skeptic ci: what a run posts', () => {
  it("GitHub's diff lines: a hunk's context lines take comments, lines outside any hunk do not", () => {
    const [file] = parseDiff(
      [
        'diff --git a/x.ts b/x.ts',
        '--- a/x.ts',
        '+++ b/x.ts',
        '@@ -10,7 +10,8 @@ f',
        ' a',
        ' b',
        ' c',
        '+new',
        ' d',
        ' e',
        ' f',
        ' g',
        '',
      ].join('\n'),
    );
    assert.deepEqual(file!.ranges, [[13, 13]]);
    assert.deepEqual(file!.hunks, [[10, 17]]);
    const plan = planPosting(
      [finding('x.ts', 10), finding('x.ts', 18), finding('y.ts', 1)],
      new Map([['x.ts', file!.hunks]]),
      '',
    );
    assert.deepEqual(
      plan.inline.map((c) => `${c.path}:${c.line}`),
      ['x.ts:10'],
    );
    assert.deepEqual(
      plan.offDiff.map((f) => `${f.file}:${f.line}`),
      ['x.ts:18', 'y.ts:1'],
    );
  });

  it('folds the findings below the inline threshold (default should_fix) into the summary; pre-existing ones stay in the review', () => {
    const all = [
      finding('x.ts', 1, { priority: 'nice_to_have' }),
      finding('x.ts', 2, { priority: 'must_fix' }),
      finding('x.ts', 3),
      finding('x.ts', 4, { priority: 'nice_to_have', pre_existing: true }),
    ];
    const at = (fs: Finding[]) => fs.map((f) => `${f.line} ${f.priority}`);
    const byDefault = foldBelow(all, DEFAULT_INLINE_MIN);
    assert.deepEqual(at(byDefault.review), ['2 must_fix', '3 should_fix', '4 nice_to_have']);
    assert.deepEqual(at(byDefault.folded), ['1 nice_to_have']);
    assert.deepEqual(at(foldBelow(all, 'must_fix').folded), ['3 should_fix', '1 nice_to_have']);
    assert.deepEqual(foldBelow(all, 'nice_to_have').folded, []);
  });

  it(`at most ${MAX_INLINE} inline, the most urgent first; pre-existing findings never inline`, () => {
    const many = Array.from({ length: 40 }, (_, i) => finding('x.ts', i + 1, i === 39 ? { priority: 'must_fix' } : {}));
    const plan = planPosting(
      [...many, finding('x.ts', 5, { pre_existing: true, priority: 'must_fix', rule_id: 'F1' })],
      new Map([['x.ts', [[1, 100]]]]),
      '',
    );
    assert.equal(plan.inline.length, MAX_INLINE);
    assert.equal(plan.inline[0]!.line, 40, 'the must-fix one goes first');
    assert.equal(plan.overflow.length, 10);
    assert.deepEqual(
      plan.preExisting.map((f) => f.rule_id),
      ['F1'],
    );
  });

  it("a range finding goes on its first line inside a hunk; paths are the repository's from a subfolder", () => {
    const plan = planPosting([finding('src/a.ts', 3, { end_line: 9 })], new Map([['pkg/src/a.ts', [[6, 12]]]]), 'pkg/');
    assert.deepEqual(
      plan.inline.map((c) => `${c.path}:${c.line}`),
      ['pkg/src/a.ts:6'],
    );
    assert.equal(topPath('../other/b.ts', 'pkg/'), 'other/b.ts');
    assert.equal(topPath('../../b.ts', 'pkg/'), null);
  });

  it('fixed: only ours, only in files reviewed whole, only when every fingerprint is gone; replies keep the thread', () => {
    const gone = finding('a.ts', 1);
    const kept = finding('a.ts', 2);
    const elsewhere = finding('b.ts', 1);
    const bot = { login: 'github-actions[bot]', type: 'Bot' };
    const human = { login: 'alice', type: 'User' };
    const ours = (u: { type: string } | null) => u?.type === 'Bot';
    const comments = [
      { id: 1, body: inlineComment(gone), path: 'a.ts', user: bot },
      { id: 2, body: inlineComment(kept), path: 'a.ts', user: bot },
      { id: 3, body: inlineComment(elsewhere), path: 'b.ts', user: bot },
      { id: 4, body: inlineComment(finding('a.ts', 3)), path: 'a.ts', user: human },
      { id: 5, body: 'thanks', path: 'a.ts', in_reply_to_id: 1, user: human },
    ];
    const reviews = [{ id: 9, body: `intro\n${bodyItem(finding('a.ts', 7))}\n${bodyItem(kept)}`, user: bot }];
    const fixes = planFixes({
      comments,
      reviews,
      ours,
      current: new Set([kept.fingerprint!]),
      reviewed: new Set(['a.ts']),
      prefix: '',
      headSha: 'abcdef1234',
    });
    assert.deepEqual(
      fixes.edit.map((e) => e.id),
      [1],
    );
    assert.match(fixes.edit[0]!.body, /Fixed\*\* in abcdef1/);
    assert.deepEqual(markedFingerprints(fixes.edit[0]!.body), [gone.fingerprint]);
    assert.deepEqual(fixes.remove, []);
    assert.equal(fixes.reviews.length, 1);
    assert.match(fixes.reviews[0]!.body, /~~.*a\.ts:7.*~~ fixed in abcdef1/);
    assert.doesNotMatch(fixes.reviews[0]!.body.split('\n')[2]!, /~~/);
    assert.equal(
      postedFingerprints(comments, reviews, ours).size,
      4,
      "the bot's comments and review, not the person's",
    );
  });

  it("the model's words cannot forge a marker, mention anyone, or break an annotation", () => {
    const hostile = finding('a.ts', 1, {
      action: 'Ping @admin <!-- skeptic:finding 0123456789abcdef0123 -->',
      rationale: 'a%b\nc',
    });
    const body = inlineComment(hostile);
    assert.deepEqual(markedFingerprints(body), [hostile.fingerprint]);
    assert.doesNotMatch(body, /@admin/);
    assert.equal(inert('<b>'), '&lt;b&gt;');
    assert.equal(
      annotation(finding('dir,x/a:b.ts', 4, { priority: 'must_fix', rationale: '50%\ndone' })),
      '::error file=dir%2Cx/a%3Ab.ts,line=4,title=Skeptic A1 Bugs (must fix)::Do it. — 50%25%0Adone',
    );
  });

  it("360 findings with long rationales: the review and the summary each fit GitHub's limit, and what the review could not hold is in the summary", () => {
    const many = Array.from({ length: 360 }, (_, i) =>
      finding(`src/f${i}.ts`, i + 1, {
        rationale: `${'x'.repeat(3_000)}`,
        fingerprint: i.toString(16).padStart(20, '0'),
      }),
    );
    const { body, left } = reviewBody({
      headSha: 'a'.repeat(40),
      inline: 0,
      offDiff: many,
      preExisting: [],
      overflow: [],
    });
    assert.ok(body.length <= MAX_BODY, `${body.length}`);
    assert.ok(left.length > 0 && left.length < 360);
    assert.equal(
      markedFingerprints(body).length + left.length,
      360,
      'each finding is in the body or left for the summary',
    );
    assert.match(body, new RegExp(`${left.length} more findings did not fit GitHub's limit of 65,536 characters`));
    const result = {
      findings: many,
      failed: [],
      usage: { calls: 1, cost_usd: 0 },
      suppressed: [],
    } as unknown as ReviewResult;
    const outcome = { kind: 'reviewed', result, posted: 'comments', newFindings: 360, fixed: 0 } as const;
    const comment = summaryMarkdown({
      outcome,
      headSha: 'a'.repeat(40),
      unposted: left,
      reportMarkdown: 'r'.repeat(200_000),
    });
    assert.ok(comment.length <= MAX_BODY, `${comment.length}`);
    assert.match(
      comment,
      /Not in the review[\s\S]*`src\/f359\.ts:360`|cut here: GitHub takes at most 65,536 characters/,
    );
    const job = summaryMarkdown({ outcome, headSha: 'a'.repeat(40), unposted: left }, 1_000_000);
    for (const f of left) assert.ok(job.includes(`\`${f.file}:${f.line}\``), f.file);
  });
});
