/**
 * Secrets by content through the real CLI: each positive example of Skeptic's own rules (a private-key block
 * that does not parse, one written as string literals, credential assignments, vendor keys, an AWS pair
 * under other names) in an ordinary source file is left out by Step 0, named with its rule and line, and
 * never reaches a request; the negative examples are reviewed as usual.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';
import { SECRET_EXAMPLES } from '../helpers/secretExamples';
import { put } from '../helpers/tree';

describe('secrets by content, through the CLI', function () {
  this.timeout(120_000);
  const fake = useFakeServer();
  let ws: string;
  before(async () => {
    ws = await mkdtemp(join(tmpdir(), 'skeptic-secrets-'));
    await put(ws, 'src/a.ts', 'export function add(a: number, b: number): number {\n  return a + b;\n}\n');
    for (const [rule, { positive, negative }] of Object.entries(SECRET_EXAMPLES)) {
      for (const [i, p] of positive.entries()) await put(ws, `src/secret/${rule}-${i}.ts`, p.text);
      for (const [i, text] of negative.entries()) await put(ws, `src/clean/${rule}-${i}.ts`, text);
    }
  });
  after(() => rmSync(ws, { recursive: true, force: true }));

  it('plan names every positive example as a secret with its rule and line, and none of the negatives', async () => {
    const plan = await runCli(['plan', '--json', 'src'], { cwd: ws });
    assert.equal(plan.code, 0, plan.stderr);
    const { exclusions } = JSON.parse(plan.stdout) as {
      exclusions: Array<{ path: string; reason: string; detail?: string }>;
    };
    const secrets = new Map(exclusions.filter((e) => e.reason === 'secret').map((e) => [e.path, e.detail]));
    for (const [rule, { positive }] of Object.entries(SECRET_EXAMPLES)) {
      for (const [i, p] of positive.entries()) {
        const detail = secrets.get(`src/secret/${rule}-${i}.ts`);
        assert.ok(detail, `src/secret/${rule}-${i}.ts is not excluded as a secret`);
        // The preset may name a key it parses first; the line is the block's either way.
        assert.match(detail, new RegExp(` on line ${p.line}$`), `src/secret/${rule}-${i}.ts: ${detail}`);
      }
    }
    assert.ok(![...secrets.keys()].some((p) => p.startsWith('src/clean/')), plan.stdout);
  });

  it('a review sends none of them', async () => {
    const run = await runCli(['review', '--yes', 'src'], {
      cwd: ws,
      env: { ANTHROPIC_API_KEY: 'sk-ant-api03-secrets-suite', ANTHROPIC_BASE_URL: fake.server.url },
    });
    assert.equal(run.code, 0, run.stderr);
    const sent = JSON.stringify(fake.server.requests.map((r) => r.body));
    assert.ok(sent.includes('src/clean/'), 'the negative examples are reviewed');
    for (const rule of Object.keys(SECRET_EXAMPLES))
      assert.ok(!sent.includes(`src/secret/${rule}-`), `${rule}'s example was sent`);
  });
});
