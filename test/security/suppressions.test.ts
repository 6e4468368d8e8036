/**
 * Suppressions are visible (issue 23, item 6), through the real CLI against the fake Messages API. The attack:
 * a change that adds `// skeptic-ignore` comments (one bare, which hides every rule) and a team-file entry
 * beside the code it changes. Before, `--changes` printed "0 findings" and exited 0, and no output said
 * anything was hidden. Now the summary line counts what each mechanism hid, `--json` and SARIF list the
 * hidden findings, and the report names the suppressions the change itself adds.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDismissal, type Dismissal } from '../../src/model/dismissals';
import { StagedJsonReport } from '../../src/report/json';
import { LensJsonReport } from '../../src/report/lensJson';
import { FINGERPRINT_KEY, SarifLog } from '../../src/report/sarif';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { FIXTURES, loadJson, runCli } from '../helpers/cli';
import { TempRepo } from '../helpers/git-repo';
import { editedShop, editLines, editShop, shopScenarioWithPreExisting } from '../helpers/shop-change';

describe('suppressions are visible: a change that hides its own findings, through the CLI', function () {
  this.timeout(120_000);
  let server: FakeAnthropic;
  const dirs: string[] = [];
  before(async () => {
    server = await startFakeAnthropic({ scenario: shopScenarioWithPreExisting() });
  });
  after(async () => {
    await server.close();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  /** A folder outside the repository for the outputs, so they are never part of the change. */
  const outside = () => {
    const dir = mkdtempSync(join(tmpdir(), 'skeptic-suppress-out-'));
    dirs.push(dir);
    return dir;
  };
  const review = (cwd: string, out: string) =>
    runCli(
      [
        'review',
        '--yes',
        '--changes',
        '--json',
        join(out, 'r.json'),
        '--sarif',
        join(out, 'r.sarif'),
        '--out',
        join(out, 'r.md'),
      ],
      { cwd, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url } },
    );
  const entry = (fingerprint: string, rule_id: string, note: string): Dismissal => ({
    fingerprint,
    rule_id,
    file: 'shop/price.ts',
    function: null,
    code: '',
    finding: '',
    reason: 'wont_fix',
    note,
  });

  it('a change adding skeptic-ignore comments (one bare) and a team entry: counted, listed, marked as its own', async () => {
    const repo = editedShop();
    // The findings' fingerprints, from a review of the change before it hides anything.
    const first = outside();
    const plain = await review(repo.dir, first);
    assert.equal(plain.code, 0, plain.stderr);
    const before = StagedJsonReport.parse(await loadJson(join(first, 'r.json')));
    assert.equal(before.findings.length, 3, plain.stdout);
    const printOf = async (line: number) =>
      SarifLog.parse(await loadJson(join(first, 'r.sarif'))).runs[0]!.results.find(
        (r) => r.locations[0]!.physicalLocation.region.startLine === line,
      )!.partialFingerprints![FINGERPRINT_KEY]!;

    // The team agreed to the pre-existing F1 earlier (committed); the change adds an entry for G1 …
    const agreed = entry(await printOf(1), 'F1', 'the doc is fixed in the next release');
    repo.write('.skeptic/dismissed.json', withDismissal([], agreed));
    repo.git('add', '.skeptic/dismissed.json');
    repo.git('commit', '-q', '-m', 'team dismissal');
    repo.write('.skeptic/dismissed.json', withDismissal([agreed], entry(await printOf(3), 'G1', 'not worth it')));
    // … a bare comment on the line it changes in Cart.total, and a rule's comment on parsePrice's.
    const cart = readFileSync(repo.path('shop/cart.ts'), 'utf8').split('\n');
    const price = readFileSync(repo.path('shop/price.ts'), 'utf8').split('\n');
    editLines(repo, 'shop/cart.ts', { 17: `${cart[16]} // skeptic-ignore` });
    editLines(repo, 'shop/price.ts', { 11: `${price[10]} // skeptic-ignore A1: the caller checks the text` });

    const out = outside();
    const run = await review(repo.dir, out);
    assert.equal(run.code, 0, run.stderr);
    // The summary line: nothing shown, but what each mechanism hid, and how much of it the change did.
    assert.match(
      run.stdout,
      /^0 findings \(0 must fix, 0 should fix, 0 nice to have\), 4 suppressed \(2 by skeptic-ignore comments, 2 by the team file \.skeptic\/dismissed\.json, 0 by your own list; 3 of them by suppressions this change adds\); /m,
    );
    assert.match(run.stdout, /^Suppressions this change adds hide 3 findings \(the report lists them\):$/m);
    assert.match(
      run.stdout,
      /^ {2}shop\/cart\.ts:17 A1 must_fix: hidden by a skeptic-ignore comment at shop\/cart\.ts:17 that names no rule \(it hides every rule\), added by this change$/m,
    );

    // --json: the hidden findings with the fields of `findings`, and what hid them.
    const json = StagedJsonReport.parse(await loadJson(join(out, 'r.json')));
    assert.deepEqual(json.findings, []);
    assert.deepEqual(json.pre_existing, []);
    assert.deepEqual(
      json.suppressed.map((s) => `${s.file}:${s.line} ${s.rule_id} ${s.by} ${s.added_in_change}`).sort(),
      [
        'shop/cart.ts:17 A1 comment true',
        'shop/price.ts:1 F1 team false',
        'shop/price.ts:11 A1 comment true',
        'shop/price.ts:3 G1 team true',
      ],
    );
    const keys = Object.keys(before.findings[0]!);
    for (const s of json.suppressed) assert.deepEqual(Object.keys(s), [...keys, 'by', 'note', 'added_in_change']);
    const note = (rule: string, line: number) =>
      json.suppressed.find((s) => s.rule_id === rule && s.line === line)!.note;
    assert.equal(note('A1', 17), null, 'a bare comment gives no reason');
    assert.equal(note('A1', 11), 'the caller checks the text');
    assert.equal(note('G1', 3), "Won't fix: not worth it");

    // SARIF: each a result with its suppression; the change's own are under review, the team's earlier one accepted.
    const sarif = SarifLog.parse(await loadJson(join(out, 'r.sarif')));
    const results = sarif.runs[0]!.results.map((r) => {
      const s = r.suppressions?.[0];
      const at = s?.location?.physicalLocation;
      return `${r.locations[0]!.physicalLocation.region.startLine} ${r.ruleId} ${s?.kind} ${s?.status} ${at?.artifactLocation.uri}:${at?.region.startLine}`;
    });
    assert.deepEqual(results.sort(), [
      '1 F1 external accepted .skeptic/dismissed.json:5',
      '11 A1 inSource underReview shop/price.ts:11',
      '17 A1 inSource underReview shop/cart.ts:17',
      '3 G1 external underReview .skeptic/dismissed.json:15',
    ]);

    // The report names the change's own suppressions; the one the team agreed to earlier is only counted.
    const report = readFileSync(join(out, 'r.md'), 'utf8');
    const [, section = ''] = report.split('## Suppressed by This Change');
    const own = section.slice(0, section.indexOf('\n## '));
    assert.match(
      own,
      /`shop\/cart\.ts:17` - .* — hidden by a skeptic-ignore comment at shop\/cart\.ts:17 that names no rule/,
    );
    assert.match(
      own,
      /`shop\/price\.ts:11` - .* — hidden by a skeptic-ignore comment at shop\/price\.ts:11, added by this change: the caller checks the text/,
    );
    assert.match(
      own,
      /`shop\/price\.ts:3`.* — hidden by the team file's entry at \.skeptic\/dismissed\.json:15, added by this change/,
    );
    assert.doesNotMatch(own, /shop\/price\.ts:1`/);
    assert.match(report, /^- Findings 4 suppressed \(2 by skeptic-ignore comments, 2 by the team file/m);
  });

  it("a suppression already in the base is counted and listed, but not as the change's own", async () => {
    const repo = new TempRepo();
    cpSync(join(FIXTURES, 'shop'), repo.path('shop'), { recursive: true });
    const price = readFileSync(repo.path('shop/price.ts'), 'utf8').split('\n');
    editLines(repo, 'shop/price.ts', { 3: `${price[2]} // skeptic-ignore G1: reviewed in #12` });
    repo.commit('shop');
    editShop(repo);
    const out = outside();
    const run = await review(repo.dir, out);
    assert.equal(run.code, 0, run.stderr);
    const json = StagedJsonReport.parse(await loadJson(join(out, 'r.json')));
    assert.deepEqual(
      json.suppressed.map((s) => `${s.file}:${s.line} ${s.by} ${s.added_in_change} ${s.note}`),
      ['shop/price.ts:3 comment false reviewed in #12'],
    );
    assert.match(
      run.stdout,
      /, 1 suppressed \(1 by skeptic-ignore comments, 0 by the team file \.skeptic\/dismissed\.json, 0 by your own list\); /,
    );
    assert.doesNotMatch(run.stdout, /this change adds/);
    assert.doesNotMatch(readFileSync(join(out, 'r.md'), 'utf8'), /Suppressed by This Change/);
  });

  it("lens mode: the hidden record keeps the lens fields in --json, and the report names the change's own", async () => {
    server.setScenario({
      lenses: {
        logic: [
          {
            file: 'shop/cart.ts',
            line: 17,
            severity: 'HIGH',
            title: 'Loop reads past the end',
            evidence: 'i <= length reads items[length].',
            recommendation: 'Loop while i < length.',
            confidence: 5,
          },
        ],
      },
    });
    const repo = editedShop();
    const line = readFileSync(repo.path('shop/cart.ts'), 'utf8').split('\n')[16];
    editLines(repo, 'shop/cart.ts', { 17: `${line} // skeptic-ignore` });
    const out = outside();
    const run = await runCli(
      ['review', '--yes', '--mode', 'lenses', '--changes', '--json', join(out, 'r.json'), '--out', join(out, 'r.md')],
      { cwd: repo.dir, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url } },
    );
    server.setScenario(shopScenarioWithPreExisting());
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^0 findings \(0 critical, 0 high, .*\), 1 suppressed \(1 by skeptic-ignore comments, .*; 1 of them by suppressions this change adds\); /m,
    );
    const json = LensJsonReport.parse(await loadJson(join(out, 'r.json')));
    assert.equal(json.summary.total, 0);
    assert.deepEqual(
      json.suppressed.map((s) => ({
        file: s.file,
        line: s.line,
        severity: s.severity,
        reviewers: s.reviewers,
        by: s.by,
        note: s.note,
        added: s.added_in_change,
      })),
      [
        {
          file: 'shop/cart.ts',
          line: 17,
          severity: 'HIGH',
          reviewers: ['logic'],
          by: 'comment',
          note: null,
          added: true,
        },
      ],
    );
    const report = readFileSync(join(out, 'r.md'), 'utf8');
    assert.match(
      report,
      /## Suppressed by This Change\n\n.*\n\n### \d+\. `shop\/cart\.ts:17` — Loop reads past the end\n[\s\S]*?- \*\*Suppressed\*\*: hidden by a skeptic-ignore comment at shop\/cart\.ts:17 that names no rule \(it hides every rule\), added by this change\n/,
    );
  });
});
