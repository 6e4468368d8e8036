import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleCliWithPrompt } from '../helpers/bundle';
import { fixtureWorkspace, runCli } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';

const oneMoreSentence = (text: string) => `${text}\nSay so when a finding rests on a guess.\n`;

describe("each mode's result-cache keys carry its own prompt version, not the other mode's", function () {
  this.timeout(180_000);
  const fake = useFakeServer();

  it('a build with an edited staged prompt re-asks every staged unit and no lens unit; an edited lens prompt, the reverse', async () => {
    // step3-review.md is in no synthesis prompt, and lens-logic.md in no other reviewer's call: only the
    // mode's prompt version tells those units that their mode's prompts changed.
    const [stagedEdit, lensEdit] = await Promise.all([
      bundleCliWithPrompt('step3-review.md', oneMoreSentence),
      bundleCliWithPrompt('lens-logic.md', oneMoreSentence),
    ]);
    const cwd = await fixtureWorkspace('shop');
    const cache = await mkdtemp(join(tmpdir(), 'skeptic-prompt-versions-'));
    /** The units the review asked the API (primes left out: whether one goes depends on timing); 0: all cached. */
    const units = async (mode: 'staged' | 'lenses', script?: string): Promise<string[]> => {
      fake.server.reset();
      const run = await runCli(['review', 'shop', '--mode', mode, '--yes'], {
        cwd,
        ...(script ? { script } : {}),
        env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.server.url, XDG_CACHE_HOME: cache },
      });
      assert.equal(run.code, 0, run.stderr);
      return fake.server.requests.flatMap((r) => (r.record ? [`${r.record} ${r.file ?? ''}`] : [])).sort();
    };

    const staged = await units('staged');
    const lenses = await units('lenses');
    assert.ok(staged.includes('SynthesisResult ') && lenses.length > 0, `${staged} | ${lenses}`);
    assert.deepEqual(await units('staged'), [], 'the same build: every staged unit from the cache');
    assert.deepEqual(await units('lenses'), [], 'the same build: every lens unit from the cache');

    assert.deepEqual(await units('lenses', stagedEdit), [], 'a staged prompt edit keeps the lens answers');
    assert.deepEqual(await units('staged', stagedEdit), staged, 'a staged prompt edit re-asks every staged unit');
    assert.deepEqual(await units('staged', lensEdit), [], 'a lens prompt edit keeps the staged answers');
    assert.deepEqual(await units('lenses', lensEdit), lenses, 'a lens prompt edit re-asks every lens unit');
  });
});
