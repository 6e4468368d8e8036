import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inventoryLookup } from '../../src/app/inventories';
import { estimateStagedRun, type StagedEstimateRequest } from '../../src/engine/staged';
import { resolveStepModels } from '../../src/model/models';
import { costUsd } from '../../src/model/pricing';
import { ReviewAccess } from '../../src/scope/access';

describe('staged estimate', () => {
  /** Two files, as app/estimate.ts gives them to the staged cost model (the parser's lookup included). */
  async function tree(): Promise<StagedEstimateRequest> {
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-estimate-'));
    const fn = (i: number) => `export function f${i}(x: number): number {\n  const y = x * ${i};\n  return y + 1;\n}\n`;
    await writeFile(join(cwd, 'big.ts'), Array.from({ length: 40 }, (_, i) => fn(i)).join('\n'));
    await writeFile(join(cwd, 'small.ts'), fn(0));
    const access = await ReviewAccess.open({ cwd, roots: ['.'] });
    const entries = [
      { path: 'big.ts', companion_path: null },
      { path: 'small.ts', companion_path: null },
    ];
    return {
      access,
      discovery: { review_roots: ['.'], file_entries: entries },
      context: [],
      inventoryOf: inventoryLookup(access),
    };
  }

  it('counts a few solo reviews for a large file only, and batches of eight for the rest', async () => {
    const files = await tree();
    const est = await estimateStagedRun(files);
    assert.equal(est.functions, 41);
    // big.ts: 3 solo (40 / 10, at most 3) + 5 batches of the other 37; small.ts: one batch.
    assert.equal(est.byStep.review.calls, 3 + 5 + 1);
  });

  it('without a prompt cache (a compatible server): no primes, no cache reads or writes, every prompt token at the input price', async () => {
    const files = await tree();
    const cached = await estimateStagedRun(files);
    const plain = await estimateStagedRun({ ...files, promptCache: false });
    for (const step of Object.values(plain.byStep)) {
      assert.equal(step.cacheReadTokens, 0);
      assert.equal(step.cacheWriteTokens, 0);
    }
    assert.ok(cached.byStep.curate.cacheReadTokens > 0, 'the cached estimate reads the cache');
    assert.equal(plain.byStep.curate.calls, cached.byStep.curate.calls - 1, 'the run-wide prime is not sent');
    assert.ok(plain.costUsd! > cached.costUsd!);
  });

  it('prices a cold run with the prompt cache: well under the same tokens uncached; unknown models have no price', async () => {
    const files = await tree();
    const est = await estimateStagedRun(files);
    const uncached = costUsd('claude-sonnet-5-5', {
      input_tokens: est.inputTokens,
      output_tokens: est.outputTokens,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    })!;
    assert.ok(est.costUsd! > 0 && est.costUsd! < uncached, `${est.costUsd} vs ${uncached}`);
    const unknown = await estimateStagedRun({ ...files, models: resolveStepModels('some-other-model') });
    assert.equal(unknown.costUsd, null);
    const overridden = await estimateStagedRun({
      ...files,
      models: resolveStepModels('some-other-model'),
      prices: { 'some-other-model': { input: 0, output: 0 } },
    });
    assert.equal(overridden.costUsd, 0);
  });
});
