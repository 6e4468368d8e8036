/**
 * The deterministic half of the noise rules: a finding labelled with a category that is never a finding is
 * removed before it costs a challenge or a validator, counted, and the rest carry their category out.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noiseReason, noiseRules } from '../../src/engine/noise';
import type { LensJsonReport } from '../../src/report/lensJson';
import type { StagedJsonReport } from '../../src/report/json';
import { MessagesBody, parseRequest, type Json } from '../fake-anthropic/request';
import type { Scenario } from '../fake-anthropic/scenario';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { loadJson, runCli } from '../helpers/cli';

const CODE = `export function first(xs: number[]): number {
  const n = xs.length;
  return xs[n];
}
`;

const SCENARIO: Scenario = {
  files: {
    'lib/first.ts': {
      reviews: {
        first: {
          A1: { verdict: 'flag', line: 3, category: 'logic' },
          // What a type checker reports, and a memory-safety claim about TypeScript: never findings.
          A2: { verdict: 'flag', line: 2, category: 'tool_reported' },
          A5: { verdict: 'advisory', line: 3, category: 'memory_safety' },
        },
      },
    },
  },
  lenses: {
    logic: [{ file: 'lib/first.ts', line: 3, severity: 'HIGH', title: 'Reads one past the end', category: 'logic' }],
    security: [
      { file: 'lib/first.ts', line: 2, severity: 'HIGH', title: 'Large arrays', category: 'denial_of_service' },
    ],
  },
};

describe('the noise filter, through the CLI against the fake API', function () {
  this.timeout(60_000);
  let server: FakeAnthropic;
  let cwd: string;

  before(async () => {
    server = await startFakeAnthropic({ scenario: SCENARIO });
    cwd = await mkdtemp(join(tmpdir(), 'skeptic-noise-'));
    await mkdir(join(cwd, 'lib'));
    await writeFile(join(cwd, 'lib/first.ts'), CODE);
  });
  beforeEach(() => server.reset());
  after(() => server.close());

  const review = (...args: string[]) =>
    runCli(['review', 'lib', ...args], { cwd, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url } });

  it('staged: removes never-a-finding categories before the challenge, counts them, and keeps the category', async () => {
    const run = await review('--json', 'staged.json', '--out', 'staged.md');
    assert.equal(run.code, 0, run.stderr);
    const json = await loadJson<StagedJsonReport>(join(cwd, 'staged.json'));
    assert.deepEqual(
      json.findings.map((f) => `${f.line} ${f.rule_id} ${f.category}`),
      ['3 A1 logic'],
    );
    const challenge = server.requests.find((r) => r.record === 'ChallengeResult' && r.turn === 1)!;
    const asked = parseRequest(MessagesBody.parse(challenge.body)).packet.findings as Json[];
    assert.deepEqual(
      asked.map((f) => f.rule_id),
      ['A1'],
    );
    const report = await readFile(join(cwd, 'staged.md'), 'utf8');
    assert.match(report, /, 2 in a category that is never a finding\./);
  });

  it('lens: removes them per reviewer, counts them by category, and keeps the category in the JSON', async () => {
    const run = await review('--mode', 'lenses', '--json', 'lens.json', '--out', 'lens.md');
    assert.equal(run.code, 0, run.stderr);
    const json = await loadJson<LensJsonReport>(join(cwd, 'lens.json'));
    assert.deepEqual(
      json.findings.map((f) => `${f.line} ${f.severity} ${f.category}`),
      ['3 HIGH logic'],
    );
    assert.deepEqual(json.noiseDropped, { denial_of_service: 1 });
    assert.match(await readFile(join(cwd, 'lens.md'), 'utf8'), /Noise filter: 1 findings .* \(denial_of_service 1\)/);
  });

  it('keeps a missing test the context files ask for, and a memory-safety defect in C', () => {
    const none = noiseRules([]);
    const asks = noiseRules([{ path: 'CLAUDE.md', text: 'Every change comes with tests.' }]);
    assert.match(noiseReason('missing_tests', 'src/a.ts', none) ?? '', /missing test/);
    assert.equal(noiseReason('missing_tests', 'src/a.ts', asks), null);
    assert.equal(noiseReason('memory_safety', 'src/a.c', none), null);
    assert.match(noiseReason('memory_safety', 'src/a.py', none) ?? '', /memory-safe/);
    assert.equal(noiseReason('logic', 'src/a.py', none), null);
    assert.equal(noiseReason(null, 'src/a.py', none), null);
  });
});
