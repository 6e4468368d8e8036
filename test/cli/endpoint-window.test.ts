import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureWorkspace, runCli } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';

describe("the endpoint's stated windows, remembered for the user", function () {
  this.timeout(120_000);
  const handle = useFakeServer();

  it("asks each model's window once: a rerun answered from the result cache sends the endpoint nothing; --refresh asks again", async () => {
    const fake = handle.server;
    const cwd = await fixtureWorkspace('shop');
    // One user cache for every run, as one user's machine has.
    const env = {
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
      XDG_CACHE_HOME: await mkdtemp(join(tmpdir(), 'skeptic-user-cache-')),
    };
    const review = (...args: string[]) => runCli(['review', 'shop', '--yes', ...args], { cwd, env });

    const first = await review();
    assert.equal(first.code, 0, first.stderr);
    const models = [...new Set(fake.requests.map((r) => (r.body as { model: string }).model))].sort();
    assert.ok(models.length >= 2, models.join(', '));
    assert.deepEqual([...fake.modelsAsked()].sort(), models, 'each model the run used, asked once');

    fake.reset();
    const rerun = await review();
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.equal(fake.requests.length, 0);
    assert.deepEqual(fake.modelsAsked(), [], 'nothing asked: the windows were remembered');

    fake.reset();
    const refreshed = await review('--refresh');
    assert.equal(refreshed.code, 0, refreshed.stderr);
    assert.deepEqual([...fake.modelsAsked()].sort(), models, '--refresh asks the endpoint again');
  });
});
