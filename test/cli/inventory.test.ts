import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StagedJsonReport } from '../../src/report/json';
import { fixtureWorkspace, loadJson, runCli } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';

const bodyText = (body: unknown) => JSON.stringify(body);

describe('staged review against the parser inventory', function () {
  this.timeout(60_000);
  const fake = useFakeServer();

  const review = (cwd: string, target = 'shop') =>
    runCli(['review', target, '--json', 'result.json'], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.server.url },
    });

  it('reviews the functions Step 2 left out and rejects the one it invented', async () => {
    const cwd = await fixtureWorkspace('shop');
    fake.server.setScenario({
      ...fake.scenario,
      faults: [
        {
          kind: 'omit_functions',
          match: { record: 'FileAnalysis', file: 'shop/cart.ts' },
          functions: ['Cart.total', 'Cart.count'],
          invent: ['Cart.checkout'],
        },
      ],
    });
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);

    const step3 = fake.server.requests.filter(
      (r) => r.file === 'shop/cart.ts' && (r.record === 'PerFunctionReview' || r.record === 'BatchReview'),
    );
    const reviewed = step3.flatMap((r) => r.functions).sort();
    assert.deepEqual(reviewed, ['Cart.add', 'Cart.clear', 'Cart.count', 'Cart.save', 'Cart.total']);
    assert.ok(
      !step3.some((r) => bodyText(r.body).includes('Cart.checkout')),
      'the invented function reaches no reviewer',
    );

    const json = await loadJson<StagedJsonReport>(join(cwd, 'result.json'));
    const cart = json.files.find((f) => f.path === 'shop/cart.ts')!;
    assert.equal(cart.functions_reviewed, 5, "the parser's count");
    // The omitted Cart.total still has its planted off-by-one found.
    assert.ok(json.findings.some((f) => f.function === 'Cart.total' && f.line === 17 && f.rule_id === 'A1'));
    assert.match(
      run.stderr + run.stdout,
      /shop\/cart\.ts: Step 2 left out 2 of the parser's functions \(reviewed anyway\) and listed 1 the file does not have \(ignored\)/,
    );
  });

  it('sends a finding cited outside its function back for repair', async () => {
    const cwd = await fixtureWorkspace('shop');
    const cart = fake.scenario.files!['shop/cart.ts']!;
    const outside = {
      verdict: 'flag' as const,
      confidence: 'high' as const,
      line: 17,
      action: 'Check the bound.',
      rationale: 'It reads past the end.',
    };
    fake.server.setScenario({
      ...fake.scenario,
      files: {
        ...fake.scenario.files,
        'shop/cart.ts': { ...cart, reviews: { ...cart.reviews, 'Cart.count': { A1: outside } } },
      },
    });
    const run = await review(cwd);
    assert.equal(run.code, 3, 'Cart.count could not be reviewed');
    const repairs = fake.server.requests.filter(
      (r) =>
        r.file === 'shop/cart.ts' &&
        bodyText(r.body).includes('Cart.count A1: line 17 is outside the function (lines 35-37)'),
    );
    assert.ok(repairs.length >= 1, 'a repair turn quotes the error');
    const json = await loadJson<StagedJsonReport>(join(cwd, 'result.json'));
    assert.ok(!json.findings.some((f) => f.function === 'Cart.count'));
  });

  it('reviews a large file through its outline: Steps 1-2 see signatures, Step 3 the bodies it reviews', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-large-'));
    const filler = Array.from(
      { length: 800 },
      (_, i) => `  total += ${i}; // keeps a running sum of the ledger entries`,
    ).join('\n');
    const fns = Array.from(
      { length: 6 },
      (_, i) => `export function step${i}(total: number): number {\n${filler}\n  return total;\n}\n`,
    );
    await writeFile(join(cwd, 'ledger.ts'), fns.join('\n'));
    const run = await review(cwd, 'ledger.ts');
    assert.equal(run.code, 0, run.stderr);

    const requests = fake.server.requests.filter((r) => r.file === 'ledger.ts');
    const analyze = requests.find((r) => r.record === 'FileAnalysis')!;
    assert.match(bodyText(analyze.body), /role=\\"outline\\"/);
    assert.ok(!bodyText(analyze.body).includes('total += 350;'), 'no body in the outline');
    const step3 = requests.filter((r) => r.record === 'PerFunctionReview' || r.record === 'BatchReview');
    assert.ok(step3.length > 0);
    for (const r of step3) assert.match(bodyText(r.body), /role=\\"excerpt\\"[\s\S]*total \+= 350;/);
    const json = await loadJson<StagedJsonReport>(join(cwd, 'result.json'));
    assert.equal(json.files[0]!.functions_reviewed, 6);
  });
});
