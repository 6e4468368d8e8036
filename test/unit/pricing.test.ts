import assert from 'node:assert/strict';
import { parsePriceOverrides } from '../../src/app/prices';
import {
  costUsd,
  describeCost,
  describeEstimate,
  formatCost,
  formatUsd,
  priceOf,
  withPremiums,
} from '../../src/model/pricing';

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

  it("names the editor's plan where it bills the calls, and never a dollar figure for them", () => {
    assert.equal(formatCost(0.42), '$0.42');
    assert.equal(formatCost(null), '$?');
    assert.equal(formatCost(null, 'editor'), "editor's plan");
    assert.match(describeCost(0.42), /^≈ \$0\.42 at the price table of /);
    assert.match(describeCost(null), /^unknown \(a model without a price/);
    assert.match(describeCost(null, undefined, 'editor'), /^billed by the editor's plan \(/);
    // The question before a run: calls and tokens always, dollars only where they are known.
    const est = { calls: 12, inputTokens: 30_400 };
    assert.equal(describeEstimate({ ...est, costUsd: 0.42 }), '12 model calls (~30k input tokens, ~$0.42)');
    assert.equal(describeEstimate({ ...est, costUsd: null }), '12 model calls (~30k input tokens)');
    assert.equal(
      describeEstimate({ ...est, costUsd: null, billing: 'editor' }),
      "12 model calls (~30k input tokens; billed by the editor's plan)",
    );
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

  it('prices 1-hour cache writes at 2× input, or at the override, and a batch at half of it all', () => {
    const hourly = { batch: true, hourWrites: usage.cache_creation_input_tokens };
    // sonnet: 3 + 1.5 + 0.6 + 2.4 (0.4M 1-hour writes at 6), halved
    assert.equal(costUsd('claude-sonnet-5-5', usage, {}, hourly)?.toFixed(4), '3.7500');
    const overrides = parsePriceOverrides({ sonnet: { input: 3, output: 15, cache_write_1h: 100 } }, 'test');
    assert.equal(priceOf('claude-sonnet-5-5', overrides)?.cache_write_1h, 100);
    // 3 + 1.5 + 0.6 + 40 (0.4M at 100), halved
    assert.equal(costUsd('claude-sonnet-5-5', usage, overrides, hourly)?.toFixed(4), '22.5500');
    const premium = withPremiums(overrides, ['claude-sonnet-5-5'], () => 1.1);
    assert.equal(premium['claude-sonnet-5-5']?.cache_write_1h?.toFixed(2), '110.00');
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
