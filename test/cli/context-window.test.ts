import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../fake-anthropic/scenario';
import { list, MessagesBody, parseRequest, text } from '../fake-anthropic/request';
import { startFakeAnthropic, type FakeAnthropic, type LoggedRequest } from '../fake-anthropic/server';
import { runCli } from '../helpers/cli';
import { put } from '../helpers/tree';

/** 90 small modules in nine folders: a synthesis of all of them does not fit the window below. */
const FILES = 90;
const pathOf = (i: number) => `wide/pkg${Math.floor(i / 10)}/mod${i}.ts`;
/** Room for any one file's steps, not for the records of every file in one request. */
const WINDOW = 40_000;

/** A cross-file finding between two files of one folder: only that folder's part sees it. */
const PLANTED: Scenario = {
  synthesis: {
    cross_file_findings: [
      {
        rule_id: 'G1',
        confidence: 'high',
        priority: 'should_fix',
        locations: [`${pathOf(31)}:2`, `${pathOf(32)}:2`],
        action: 'Share one scaling helper.',
        rationale: 'Both modules scale the same way.',
      },
    ],
  },
};

/** The files whose records a synthesis request carries. */
const filesShown = (r: LoggedRequest) =>
  list(parseRequest(MessagesBody.parse(r.body)).packet, 'file_entries').flatMap((e) => text(e, 'path') ?? []);

async function wideTree(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'skeptic-wide-'));
  for (let i = 0; i < FILES; i++) {
    await put(
      cwd,
      pathOf(i),
      `/** Module ${i}. */\nexport function scale${i}(x: number): number {\n  return x * ${i};\n}\n`,
    );
  }
  return cwd;
}

describe('a wide review under a small context window', function () {
  this.timeout(120_000);
  let fake: FakeAnthropic;
  before(async () => {
    fake = await startFakeAnthropic({ contextWindow: WINDOW });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.setScenario(PLANTED);
    fake.reset();
  });

  const review = (cwd: string, args: string[] = []) =>
    runCli(['review', 'wide', '--yes', '--json', 'result.json', ...args], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
    });
  const synthesisCalls = () => fake.requests.filter((r) => r.record?.startsWith('Synthesis'));

  it('synthesizes by parts within the window it is told, and the report is complete', async () => {
    const cwd = await wideTree();
    await writeFile(
      join(cwd, 'window.json'),
      JSON.stringify({ opus: { context_window: WINDOW }, sonnet: { context_window: WINDOW } }),
    );
    const run = await review(cwd, ['--prices', 'window.json']);
    assert.equal(run.code, 0, run.stderr);
    // Nothing was sent that the API had to refuse.
    assert.deepEqual(
      fake.requests.filter((r) => r.status !== 200).map((r) => r.record),
      [],
    );
    const parts = synthesisCalls().filter((r) => r.record === 'SynthesisResult');
    assert.ok(parts.length > 1, `expected several partial syntheses, got ${parts.length}`);
    assert.equal(synthesisCalls().filter((r) => r.record === 'SynthesisMerge').length, 1);
    // Each file is in exactly one part.
    const shown = parts.flatMap(filesShown);
    assert.equal(shown.length, FILES);
    assert.equal(new Set(shown).size, FILES);

    const report = await readFile(join(cwd, 'code-review-wide.md'), 'utf8');
    assert.doesNotMatch(report, /synthesis did not run/);
    assert.match(report, new RegExp(`Fake synthesis over ${parts.length} parts: ${FILES} files reviewed`));
    for (let i = 0; i < FILES; i++) assert.ok(report.includes(`Fake profile of ${pathOf(i)}.`), pathOf(i));
    const json = JSON.parse(await readFile(join(cwd, 'result.json'), 'utf8')) as {
      findings: { rule_id: string; locations: string[] }[];
    };
    assert.deepEqual(
      json.findings.filter((f) => f.rule_id === 'G1').map((f) => f.locations),
      [[`${pathOf(31)}:2`, `${pathOf(32)}:2`]],
    );
  });

  it('rebuilds a request the API calls too long instead of sending it again', async () => {
    const cwd = await wideTree();
    // The client believes the model's 1M window; the endpoint holds 40k.
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);
    const refused = fake.requests.filter((r) => r.status === 400);
    assert.equal(refused.length, 1, JSON.stringify(refused.map((r) => r.record)));
    assert.equal(refused[0]!.record, 'SynthesisResult');
    const bodies = fake.requests.map((r) => JSON.stringify(r.body));
    assert.equal(bodies.filter((b) => b === JSON.stringify(refused[0]!.body)).length, 1);
    assert.ok(synthesisCalls().filter((r) => r.status === 200 && r.record === 'SynthesisResult').length > 1);
    const report = await readFile(join(cwd, 'code-review-wide.md'), 'utf8');
    assert.match(report, /Fake synthesis over \d+ parts: 90 files reviewed/);
  });
});
