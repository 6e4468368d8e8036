import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CrossFileFinding } from '../../src/model/records';
import { useFakeServer } from '../helpers/fakeServer';
import { fixtureWorkspace, runCli } from '../helpers/cli';

/** A cross-file finding that cites a file outside the review: every answer fails its check, so synthesis is salvaged. */
const STRAY: CrossFileFinding = {
  rule_id: 'G2',
  confidence: 'medium',
  priority: 'should_fix',
  locations: ['shop/price.ts:3', 'elsewhere/gone.ts:4'],
  action: 'Merge the two rounding helpers.',
  rationale: 'Planted to cite a file that was not reviewed.',
  category: 'duplication',
};

describe('units that settle without a clean answer are not paid for twice', function () {
  this.timeout(90_000);
  const fake = useFakeServer();

  it('keeps a salvaged synthesis and a refused unit for the rerun; --refresh asks them again', async () => {
    const cwd = await fixtureWorkspace('shop');
    const cache = await mkdtemp(join(tmpdir(), 'skeptic-settled-'));
    fake.server.setScenario({
      ...fake.scenario,
      synthesis: { cross_file_findings: [STRAY] },
      faults: [{ kind: 'refusal', match: { record: 'Step1Record', file: 'shop/price.ts' }, times: -1 }],
    });
    const review = (args: string[] = []) =>
      runCli(['review', 'shop', '--yes', ...args], {
        cwd,
        env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.server.url, XDG_CACHE_HOME: cache },
      });
    const asked = (record: string) => fake.server.requests.filter((r) => r.record === record).length;

    const first = await review();
    assert.equal(first.code, 3, first.stderr); // the refused file is a failed unit
    assert.equal(asked('SynthesisResult'), 3); // the answer and two repair turns
    const report = await readFile(join(cwd, 'code-review-shop.md'), 'utf8');
    assert.match(report, /cross-file finding G2 "Merge the two rounding helpers" dropped: cites elsewhere\/gone\.ts/);

    fake.server.reset();
    const again = await review();
    assert.equal(again.code, 3, again.stderr);
    assert.equal(fake.server.requests.length, 0, JSON.stringify(fake.server.requests.map((r) => r.record)));
    const second = await readFile(join(cwd, 'code-review-shop-v2.md'), 'utf8');
    // The same report: the salvage's note and the refusal's reason come back from the cache.
    assert.match(second, /cross-file finding G2 "Merge the two rounding helpers" dropped/);
    assert.match(second, /the model refused to answer \(as for the same input before; --refresh asks again\)/);

    fake.server.reset();
    const refreshed = await review(['--refresh']);
    assert.equal(refreshed.code, 3, refreshed.stderr);
    assert.equal(asked('SynthesisResult'), 3);
    assert.equal(asked('Step1Record'), 1); // only the refused one: clean answers still come from the cache
  });
});
