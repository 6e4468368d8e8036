/**
 * How a run stops, from the engine to runJob's outcome, against the fake Messages API: a refused key is a
 * `refused` stop with the API's status (what the editor offers another key for), and the run's own
 * --max-calls ceiling is a `maxCalls` stop that still writes its report. The words stay what they were.
 */
import assert from 'node:assert/strict';
import { buildJob } from '../../src/app/buildJob';
import { runJob, type JobOutcome } from '../../src/app/runJob';
import type { ReviewChoices } from '../../src/app/choices';
import { fixtureWorkspace } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';

describe('how a run stops, as runJob returns it', function () {
  this.timeout(60_000);
  const fake = useFakeServer();

  async function review(choices: Partial<Omit<ReviewChoices, 'scope'>>): Promise<Extract<JobOutcome, { kind: 'ran' }>> {
    const cwd = await fixtureWorkspace('shop');
    const job = buildJob(
      { cwd, scope: { kind: 'paths', paths: ['shop'] }, baseUrl: fake.server.url, cacheResults: false, ...choices },
      { apiKey: 'k' },
    );
    const outcome = await runJob(job, { emit: () => undefined, signal: new AbortController().signal });
    assert.equal(outcome.kind, 'ran');
    return outcome as Extract<JobOutcome, { kind: 'ran' }>;
  }

  it('a refused key stops the run as `refused` with the status, in the words it always had; no report', async () => {
    fake.server.setScenario({ ...fake.scenario, faults: [{ kind: 'status', status: 401, times: -1, match: {} }] });
    const { result, outputs } = await review({});
    assert.equal(result.stop?.kind, 'refused');
    assert.equal(result.stop?.status, 401);
    assert.match(result.stop?.message ?? '', /^the API refused the run: HTTP 401/);
    assert.equal(outputs, null);
  });

  it('the --max-calls ceiling stops the run as `maxCalls`, and its report is written', async () => {
    const { result, outputs } = await review({ maxCalls: 1 });
    assert.deepEqual(result.stop, {
      kind: 'maxCalls',
      status: null,
      message: 'the run reached its ceiling of 1 model calls (--max-calls)',
    });
    assert.ok(outputs, 'a run stopped at its own limit reports what it has');
  });
});
