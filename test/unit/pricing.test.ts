import assert from 'node:assert/strict';
import { parsePriceOverrides } from '../../src/app/prices';
import { costUsd, formatUsd, priceOf } from '../../src/model/pricing';

const usage = {
  input_tokens: 1_000_000,
  output_tokens: 100_000,
  cache_read_input_tokens: 2_000_000,
  cache_creation_input_tokens: 400_000,
};

describe('pricing', () => {
  it('prices a model by its family, with cache writes at 1.25× and reads at 0.1× of input', () => {
    // sonnet: 3 in, 15 out → 3 + 1.5 + 0.6 (2M reads at 0.3) + 1.5 (0.4M writes at 3.75)
    assert.equal(costUsd('claude-sonnet-5-5', usage)?.toFixed(4), '6.6000');
    assert.ok(costUsd('claude-opus-5-5', usage)! > costUsd('claude-haiku-5-5', usage)!);
  });

  it('has no price, not a guess, for an unknown model', () => {
    assert.equal(priceOf('gpt-9'), undefined);
    assert.equal(costUsd('gpt-9', usage), null);
    assert.equal(formatUsd(null), '$?');
  });

  it('takes overrides by exact model ID before family, including explicit cache rates', () => {
    const overrides = parsePriceOverrides(
      { 'claude-sonnet-5-5': { input: 1, output: 1, cache_read: 0, cache_write: 0 }, haiku: { input: 0, output: 10 } },
      'test',
    );
    assert.equal(costUsd('claude-sonnet-5-5', usage, overrides), 1.1);
    assert.equal(costUsd('claude-haiku-5-5', usage, overrides), 1);
    assert.equal(costUsd('claude-sonnet-4-6', usage, overrides)?.toFixed(1), '6.6');
  });

  it('says where a bad override is wrong', () => {
    assert.throws(
      () => parsePriceOverrides({ opus: { input: -1, output: 2 } }, 'prices.json'),
      /prices\.json: opus\.input: .*dollars per million/,
    );
    assert.throws(() => parsePriceOverrides({ opus: { input: 1 } }, 'prices.json'), /opus\.output/);
  });

  it('formats small and ordinary amounts', () => {
    assert.deepEqual(
      [formatUsd(0), formatUsd(0.004), formatUsd(0.4237), formatUsd(12.3)],
      ['$0.00', '<$0.01', '$0.42', '$12.30'],
    );
  });
});
