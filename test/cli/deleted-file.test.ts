/**
 * A file the change deleted, reviewed for what its removal breaks, through the CLI against the fake API: each
 * file still using what it defined is reviewed with the deleted text beside it and its using lines as changed.
 */
import assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeAnthropic, type FakeAnthropic, type LoggedRequest } from '../fake-anthropic/server';
import { FIXTURES, runCli } from '../helpers/cli';
import { TempRepo } from '../helpers/git-repo';
import { PlanJson } from '../../src/report/planJson';
import { FILE_RULES } from '../../src/engine/staged/fileRules';

type Body = { max_tokens: number; messages: Array<{ content: Array<{ text?: string }> }> };
const blocks = (r: LoggedRequest) => (r.body as Body).messages[0]!.content.map((b) => b.text ?? '');
const isPrime = (r: LoggedRequest) => (r.body as Body).max_tokens === 1;
const asked = (server: FakeAnthropic) => server.requests.filter((r) => r.record !== null && !isPrime(r));

const DISCOUNT = [
  '/** Takes a percentage off a price. */',
  'export function takePercent(price: number, percent: number): number {',
  '  return price * (1 - percent / 100);',
  '}',
  '',
].join('\n');
const CHECKOUT = [
  "import { takePercent } from './discount';",
  '',
  'export function total(price: number): number {',
  '  return takePercent(price, 10);',
  '}',
  '',
].join('\n');
/** Its own function of the same name: not a user of the deleted one. */
const OTHER = ['export function takePercent(n: number): number {', '  return n / 100;', '}', ''].join('\n');
const UNUSED = ['export function neverCalled(): number {', '  return 42;', '}', ''].join('\n');
/** A deleted file far over the removed-lines caps: one export near its top, then bulk. */
const BIG = [
  'export function bigHelper(n: number): number {',
  '  return n;',
  '}',
  ...Array.from({ length: 3000 }, (_, i) => `export const filler${i} = ${i}; // bulk line ${i}`),
  '',
].join('\n');

/** The shop plus `extra` committed, then the files named in `gone` deleted. */
function repoDeleting(extra: Record<string, string>, gone: string[]): TempRepo {
  const repo = new TempRepo();
  cpSync(join(FIXTURES, 'shop'), repo.path('shop'), { recursive: true });
  for (const [path, text] of Object.entries(extra)) repo.write(path, text);
  repo.commit('shop');
  for (const path of gone) rmSync(repo.path(path));
  return repo;
}

describe('a deleted file is reviewed for what its removal breaks', function () {
  this.timeout(120_000);
  let server: FakeAnthropic;
  before(async () => {
    server = await startFakeAnthropic({ scenario: { files: {} } });
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url });
  const review = (cwd: string, ...args: string[]) =>
    runCli(['review', '--changes', '--force', '--no-cache', '--json', 'result.json', ...args], { cwd, env: env() });
  const codeOf = (r: LoggedRequest) => blocks(r).find((b) => b.includes('role="removed"')) ?? '';

  it('staged and lens mode: the caller file is reviewed with the deleted text and its using line; plan counts it', async () => {
    const repo = repoDeleting(
      { 'shop/discount.ts': DISCOUNT, 'shop/checkout.ts': CHECKOUT, 'shop/other.ts': OTHER, 'shop/unused.ts': UNUSED },
      ['shop/discount.ts', 'shop/unused.ts'],
    );
    const plan = await runCli(['plan', '--changes', '--no-cache', '--json'], { cwd: repo.dir, env: env() });
    assert.equal(plan.code, 0, plan.stderr);
    const planned = PlanJson.parse(JSON.parse(plan.stdout));
    assert.equal(planned.estimate.functions, 1, 'Step 3 sized for the one function with a using line');
    assert.deepEqual(
      planned.files.map((f) => f.path),
      ['shop/checkout.ts'],
      'the one file still using a deleted name; not one defining its own, nor anything for the file nobody used',
    );

    const run = await review(repo.dir);
    assert.equal(run.code, 0, run.stderr);
    const requests = asked(server);
    assert.deepEqual([...new Set(requests.map((r) => r.file).filter(Boolean))], ['shop/checkout.ts']);
    const step3 = requests.filter((r) => r.record === 'PerFunctionReview' || r.record === 'BatchReview');
    assert.ok(step3.length, 'Step 3 reviewed the caller');
    assert.ok(
      step3.some((r) => r.functions.includes('total')),
      'the function with the using line is reviewed',
    );
    for (const r of requests.filter((q) => q.record !== 'SynthesisResult')) {
      const code = codeOf(r);
      assert.match(code, /<untrusted_source_[0-9a-f]{8} path="shop\/checkout\.ts" role="removed"/, `${r.record}`);
      assert.match(
        code,
        /\(the deleted file shop\/discount\.ts, base lines 1-4: this file still uses what it defined\)/,
      );
      assert.ok(code.includes('   2- export function takePercent(price: number, percent: number): number {'));
      assert.ok(code.includes('   4|   return takePercent(price, 10);'), `${r.record}: the using line`);
      assert.ok(!code.includes('neverCalled'), 'a deleted file nobody uses is not sent');
      assert.ok(code.includes(FILE_RULES.deleted!), `${r.record}: what a deleted file's run means, beside it`);
    }
    const packet = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(blocks(step3[0]!).at(-1)!)![1]!) as Record<
      string,
      unknown
    >;
    assert.deepEqual(packet.callers_of_removed, {
      'takePercent (removed)': [
        "shop/checkout.ts:1  import { takePercent } from './discount';",
        'shop/checkout.ts:4  return takePercent(price, 10);',
      ],
    });

    server.reset();
    rmSync(repo.path('result.json')); // new and untracked: it would be under review itself
    const lens = await review(repo.dir, '--mode', 'lenses', '--full-fanout');
    assert.equal(lens.code, 0, lens.stderr);
    const reviewers = asked(server).filter((r) => r.record === 'LensReview');
    assert.ok(reviewers.length, 'lens reviewers ran');
    for (const r of reviewers) {
      const all = blocks(r).join('\n');
      assert.ok(all.includes('   2- export function takePercent('), 'the deleted text');
      assert.ok(all.includes('   4|   return takePercent(price, 10);'), 'the using line');
    }
  });

  it('a deleted file nobody uses costs no call', async () => {
    const repo = repoDeleting({ 'shop/unused.ts': UNUSED }, ['shop/unused.ts']);
    const run = await review(repo.dir);
    assert.equal(run.stderr.includes('Error'), false, run.stderr);
    assert.deepEqual(asked(server), []);
  });

  it('--staged: a huge deleted file is cut to the removed-lines caps, and one git sees as binary sends nothing', async () => {
    const repo = repoDeleting(
      {
        'shop/big.ts': BIG,
        'shop/blob.ts': 'export function blobHelper() {}\n\u0000\u0001\n',
        'shop/checkout.ts':
          "import { bigHelper } from './big';\nimport { blobHelper } from './blob';\nexport const one = bigHelper(1) + blobHelper();\n",
      },
      ['shop/big.ts', 'shop/blob.ts'],
    );
    repo.git('add', '-A');
    const run = await runCli(['review', '--staged', '--force', '--no-cache'], { cwd: repo.dir, env: env() });
    assert.equal(run.code, 0, run.stderr);
    const requests = asked(server).filter((r) => r.file === 'shop/checkout.ts');
    assert.ok(requests.length, 'the caller is reviewed');
    for (const r of requests) {
      const code = codeOf(r);
      assert.ok(code.includes('   1- export function bigHelper(n: number): number {'), 'its top is sent');
      assert.match(code, /\(\d+ more removed lines of this run not shown: over the cap\)/);
      assert.ok(!code.includes('bulk line 2999'), 'not the whole file');
      assert.ok(code.length < 30_000, `the removed block stays within its caps (${code.length})`);
      assert.ok(!code.includes('the deleted file shop/blob.ts'), 'a binary deletion has no text to send');
    }
  });
});
