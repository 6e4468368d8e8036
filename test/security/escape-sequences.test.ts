/**
 * A model's words that carry terminal escape sequences (OSC 52 writes the clipboard, OSC 0 the window title,
 * CSI 2J clears the screen, C1 controls do the same in one byte, BEL rings) reach no output: not the console,
 * and not the files a review writes — the markdown report (also what the editor's report page shows), --json,
 * --sarif and --events — which a user will `cat` or a tool print. The words around them are kept.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureWorkspace, runCli } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';

/** Every control character but tab and line feed, C1 included. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const HOSTILE =
  'Reads past the end.\u001b]52;c;ZXZpbA==\u0007\u001b]0;pwned\u0007\u001b[2J\u009b2J\u0007\u0085 Then stops.';

/** Every string in a parsed JSON value, at any depth. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe("escape sequences in a model's words reach neither the console nor the files a review writes", function () {
  this.timeout(120_000);
  const fake = useFakeServer();

  it('the report, --json, --sarif, --events and the console: sequences removed, the words kept', async () => {
    const hostile = structuredClone(fake.scenario);
    const loop = hostile.files!['shop/cart.ts']!.reviews!['Cart.total']!['A1']!;
    loop.rationale = HOSTILE;
    loop.action = `Loop while i < n.\u001b[31m\r\u009d8;;http://x\u009c`;
    fake.server.setScenario(hostile);
    const cwd = await fixtureWorkspace('shop');
    const run = await runCli(
      [
        'review',
        'shop',
        '--yes',
        '--out',
        'report.md',
        '--json',
        'r.json',
        '--sarif',
        'r.sarif',
        '--events',
        'e.jsonl',
      ],
      { cwd, env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.server.url } },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout + run.stderr, CONTROL);

    const report = readFileSync(join(cwd, 'report.md'), 'utf8');
    // Before: the report held every sequence as the model wrote it.
    assert.doesNotMatch(report, CONTROL, 'the markdown report');
    assert.match(report, /Reads past the end\. Then stops/);
    for (const file of ['r.json', 'r.sarif']) {
      const text = readFileSync(join(cwd, file), 'utf8');
      assert.doesNotMatch(text, CONTROL, `${file} as written`);
      // JSON writes C0 controls as \u escapes, which every reader turns back into the characters.
      assert.ok(!strings(JSON.parse(text)).some((s) => CONTROL.test(s)), `${file} as read`);
      assert.match(text, /Reads past the end\. Then stops/);
    }
    const events = readFileSync(join(cwd, 'e.jsonl'), 'utf8').trim().split('\n');
    assert.ok(
      events.some((l) => l.includes('Reads past the end')),
      'the finding is in the event log',
    );
    for (const line of events) assert.ok(!strings(JSON.parse(line)).some((s) => CONTROL.test(s)), line);
  });
});
