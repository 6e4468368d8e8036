import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FindingScreen, loadTeamFile, type TeamFile } from '../../src/app/dismissals';
import { summarize } from '../../src/app/summary';
import type { ReviewEvent, StagedResult } from '../../src/model/events';
import { emptyUsage } from '../../src/model/usage';
import { challengeExamples, parseDismissalFile, withDismissal, type Dismissal } from '../../src/model/dismissals';
import { fingerprint } from '../../src/model/fingerprint';
import { describeSuppressed } from '../../src/model/suppressed';
import { renderStagedReport } from '../../src/report/markdown';
import { ScopeError } from '../../src/scope/inventory';
import { finding } from '../helpers/records';
import { put } from '../helpers/tree';

const CART = [
  'export function total(items) {',
  '  let sum = 0;',
  '  for (let i = 0; i <= items.length; i++) sum += items[i].price;',
  '  return sum;',
  '}',
  '',
].join('\n');

const teamOf = (dismissals: Dismissal[]): TeamFile => ({ dismissals, lines: new Map() });

function dismissal(over: Partial<Dismissal> = {}): Dismissal {
  return {
    fingerprint: 'abcdef0123456789abcd',
    rule_id: 'A1',
    file: 'cart.ts',
    function: 'total',
    code: '',
    finding: 'Stop at length.',
    reason: 'false_positive',
    ...over,
  };
}

describe('the team dismissal file', () => {
  it('parses a valid file and fills the optional fields', () => {
    const text = JSON.stringify({
      version: 1,
      dismissed: [
        { fingerprint: 'abcdef0123456789abcd', rule_id: 'A1', file: 'cart.ts', reason: 'wont_fix', note: 'legacy API' },
      ],
    });
    const [d] = parseDismissalFile(text);
    assert.equal(d!.function, null);
    assert.equal(d!.note, 'legacy API');
  });

  it('names the file and the first bad field of a malformed one', () => {
    assert.throws(() => parseDismissalFile('{ "version": 1, '), /\.skeptic\/dismissed\.json is not valid JSON/);
    assert.throws(() => parseDismissalFile(JSON.stringify({ version: 2, dismissed: [] })), /dismissed\.json: version:/);
    const bad = {
      version: 1,
      dismissed: [{ fingerprint: 'abcdef0123456789abcd', rule_id: 'A1', file: 'cart.ts', reason: 'nope' }],
    };
    assert.throws(() => parseDismissalFile(JSON.stringify(bad)), /dismissed\.json: dismissed\.0\.reason:/);
    assert.throws(
      () =>
        parseDismissalFile(
          JSON.stringify({ version: 1, dismissed: [{ ...bad.dismissed[0], reason: 'wont_fix', fingerprint: 'XYZ' }] }),
        ),
      /fingerprint/,
    );
  });

  it('writes sorted entries, one per fingerprint, and round-trips', () => {
    const a = dismissal({ file: 'b.ts', fingerprint: '1111111111' });
    const b = dismissal({ file: 'a.ts', fingerprint: '2222222222' });
    const text = withDismissal([a], b);
    assert.deepEqual(
      parseDismissalFile(text).map((d) => d.file),
      ['a.ts', 'b.ts'],
    );
    const replaced = parseDismissalFile(withDismissal(parseDismissalFile(text), { ...a, note: 'again' }));
    assert.equal(replaced.length, 2);
    assert.equal(replaced.find((d) => d.fingerprint === a.fingerprint)!.note, 'again');
  });

  it('gives the challenger only dismissals with a note, newest first, capped', () => {
    const list = [
      dismissal({ note: 'old', date: '2026-01-01' }),
      dismissal({ note: '  ' }),
      dismissal({ note: 'new', date: '2026-06-01' }),
      dismissal({}),
    ];
    assert.deepEqual(
      challengeExamples(list, 5).map((e) => e.note),
      ['new', 'old'],
    );
    assert.equal(challengeExamples(list, 1).length, 1);
  });

  it('is optional, and a broken one stops the run with a setup error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skeptic-dismiss-'));
    assert.deepEqual((await loadTeamFile(dir)).dismissals, []);
    await put(dir, '.skeptic/dismissed.json', '{');
    await assert.rejects(
      loadTeamFile(dir),
      (err: unknown) => err instanceof ScopeError && /not valid JSON/.test(err.message),
    );
  });
});

describe('screening a run against dismissals', () => {
  let dir: string;
  const a1 = finding({ file: 'cart.ts', line: 3, rule_id: 'A1', function: 'total' });
  const a6 = finding({ file: 'cart.ts', line: 2, rule_id: 'A6', function: 'total', priority: 'nice_to_have' });
  const a5 = finding({ file: 'cart.ts', line: 4, rule_id: 'A5', function: 'total', priority: 'should_fix' });
  const printOf = (f: typeof a1, code: string) =>
    fingerprint({ rule_id: f.rule_id, file: f.file, function: f.function, code });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skeptic-screen-'));
    await put(
      dir,
      'cart.ts',
      CART.replace('  return sum;', '  // skeptic-ignore A5: no error can happen here\n  return sum;').replace(
        'return sum;',
        'return sum;',
      ),
    );
  });

  it('drops team, user and inline dismissals, stamps the rest, and counts them for the report', () => {
    // The comment above "return sum" moved it to line 5: the A5 finding points there.
    const inline = { ...a5, line: 5, locations: [{ file: 'cart.ts', line: 5 }] };
    const team = [
      dismissal({ fingerprint: printOf(a1, '  for (let i = 0; i <= items.length; i++) sum += items[i].price;') }),
    ];
    const user = [dismissal({ rule_id: 'A6', fingerprint: printOf(a6, 'let sum = 0;') })];
    const other = finding({ file: 'cart.ts', line: 1, rule_id: 'A3', function: 'total', priority: 'should_fix' });
    const screen = new FindingScreen(dir, teamOf(team), user);
    const result = {
      mode: 'staged',
      effort: {},
      findings: [a1, a6, inline, other],
      files: [],
      filtered: [],
      failed: [],
      notes: [],
      models: { review: 'm' },
      reviewRoots: ['.'],
      synthesis: null,
      usage: emptyUsage(),
      usageByStep: {},
      retries: 0,
      failedAttempts: 0,
      repairs: 0,
      cacheHits: 0,
      recovered: 0,
    } as StagedResult;
    const out = screen.result(result);
    assert.deepEqual(
      out.findings.map((f) => f.rule_id),
      ['A3'],
    );
    assert.equal(out.findings[0]!.fingerprint, printOf(other, 'export function total(items) {'));
    assert.deepEqual(
      out.suppressed?.map((s) => `${s.finding.rule_id} ${s.by} ${s.note} ${s.addedInChange}`),
      ['A1 team False positive false', 'A6 user False positive false', 'A5 comment no error can happen here false'],
    );
    assert.deepEqual(out.suppressed?.[2]?.at, { file: 'cart.ts', line: 4 }, 'the comment is on the line above');
    const report = renderStagedReport(out, { name: 'cart', date: '2026-12-01' });
    assert.match(
      report,
      /^- Findings 3 suppressed \(1 by skeptic-ignore comments, 1 by the team file \.skeptic\/dismissed\.json, 1 by your own list\); --json and SARIF list them\.$/m,
    );
    assert.doesNotMatch(report, /Suppressed by This Change/, 'no change under review');
    assert.equal(
      summarize(out).suppressed,
      '3 suppressed (1 by skeptic-ignore comments, 1 by the team file .skeptic/dismissed.json, 1 by your own list)',
      "the extension's summary says what hid them",
    );
    assert.equal(summarize(result).suppressed, undefined, 'nothing suppressed: no text');
  });

  it("keeps a dismissed finding out of the event stream and holds back the engine's done event", () => {
    const screen = new FindingScreen(
      dir,
      teamOf([
        dismissal({ fingerprint: printOf(a1, 'for (let i = 0; i <= items.length; i++) sum += items[i].price;') }),
      ]),
      [],
    );
    const seen: ReviewEvent[] = [];
    const emit = screen.events((e) => seen.push(e));
    emit({ type: 'finding', finding: a1 });
    emit({ type: 'finding', finding: a6 });
    emit({ type: 'progress', step: 'review', done: 1, total: 2, message: 'm' });
    emit({ type: 'done', result: {} as StagedResult });
    assert.deepEqual(
      seen.map((e) => (e.type === 'finding' ? e.finding.rule_id : e.type)),
      ['A6', 'progress'],
    );
    assert.ok(seen[0]!.type === 'finding' && seen[0]!.finding.fingerprint);
  });

  it('a dismissal no longer matches once the line it was about is edited', () => {
    const screen = new FindingScreen(
      dir,
      teamOf([
        dismissal({ fingerprint: printOf(a1, 'for (let i = 0; i < items.length; i++) sum += items[i].price;') }),
      ]),
      [],
    );
    assert.ok(screen.screen(a1), 'the code at line 3 still has <=: a different fingerprint');
  });

  it('describes nothing when nothing was suppressed', () => {
    assert.equal(describeSuppressed(undefined), null);
    assert.equal(describeSuppressed([]), null);
  });

  it("marks a team entry as the change's own by the line its fingerprint is on, and any entry it cannot place when the file changed", async () => {
    const placed = printOf(a1, '  for (let i = 0; i <= items.length; i++) sum += items[i].price;');
    const hidden = printOf(a6, '  let sum = 0;');
    const team = await mkdtemp(join(tmpdir(), 'skeptic-team-'));
    // The second entry spells its key with an escape: JSON reads it, a search for the key's text does not.
    await put(
      team,
      '.skeptic/dismissed.json',
      `{"version": 1, "dismissed": [\n{"fingerprint": "${placed}", "rule_id": "A1", "file": "cart.ts", "reason": "wont_fix"},\n{"\\u0066ingerprint": "${hidden}", "rule_id": "A6", "file": "cart.ts", "reason": "wont_fix"}\n]}\n`,
    );
    const file = await loadTeamFile(team);
    assert.deepEqual([...file.lines], [[placed, 2]]);
    const run = (changed: Map<string, Array<[number, number]>>) =>
      new FindingScreen(dir, file, [], changed)
        .result({ mode: 'staged', findings: [a1, a6] } as StagedResult)
        .suppressed?.map((s) => `${s.finding.rule_id} ${s.addedInChange} ${s.at?.line ?? null}`);
    assert.deepEqual(run(new Map([['.skeptic/dismissed.json', [[3, 3]]]])), ['A1 false 2', 'A6 true null']);
    assert.deepEqual(run(new Map([['.skeptic/dismissed.json', [[2, 2]]]])), ['A1 true 2', 'A6 true null']);
    assert.deepEqual(run(new Map([['cart.ts', [[1, 9]]]])), ['A1 false 2', 'A6 false null']);
  });
});
