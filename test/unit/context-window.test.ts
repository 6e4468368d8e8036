import assert from 'node:assert/strict';
import { parsePriceOverrides } from '../../src/app/prices';
import { contextWindowOf } from '../../src/model/contextWindow';
import { costUsd } from '../../src/model/pricing';
import { jsonBytesAtMost, PromptTooLong, WindowGuard } from '../../src/engine/window';
import type { MessageParams } from '../../src/engine/client';
import { firstParty } from '../../src/engine/connect';
import { startFakeAnthropic } from '../fake-anthropic/server';

const request = (model: string, text: string, maxTokens = 1_000): MessageParams => ({
  model,
  max_tokens: maxTokens,
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
});

describe('context windows', () => {
  it('gives the current models their 1M window and any other model 200k, whatever the spelling', () => {
    assert.equal(contextWindowOf('claude-opus-5-5'), 1_000_000);
    assert.equal(contextWindowOf('anthropic.claude-sonnet-5-5-v1:0'), 1_000_000);
    assert.equal(contextWindowOf('claude-haiku-5-5'), 1_000_000);
    assert.equal(contextWindowOf('claude-haiku-4-5-20251001'), 200_000);
    assert.equal(contextWindowOf('claude-opus-4-5'), 200_000);
    assert.equal(contextWindowOf('some-gateway-model'), 200_000);
  });

  it('takes the window from the price table by model ID before family, alone or beside a price', () => {
    const table = parsePriceOverrides(
      { opus: { context_window: 100_000 }, 'claude-opus-5-5': { input: 1, output: 2, context_window: 50_000 } },
      'test',
    );
    assert.equal(contextWindowOf('claude-opus-5-5', table), 50_000);
    assert.equal(contextWindowOf('claude-opus-5', table), 100_000);
    // A row with only a window leaves the list price standing.
    assert.equal(
      costUsd(
        'claude-opus-5',
        { input_tokens: 1_000_000, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        table,
      ),
      5,
    );
    assert.throws(
      () => parsePriceOverrides({ opus: {} }, 'prices.json'),
      /prices\.json: opus: give a price or a context_window/,
    );
    assert.throws(() => parsePriceOverrides({ opus: { context_window: 10 } }, 'prices.json'), /opus\.context_window/);
  });

  it('refuses a request over the window before sending, by a bound of one token a byte, counting its max_tokens', async () => {
    const guard = new WindowGuard({ sonnet: { context_window: 10_000 } });
    // 8,000 bytes of text and what the API adds (1,024) fit beside 900 for the answer, not beside 1,000.
    await guard.admit(request('claude-sonnet-5-5', 'x'.repeat(8_000), 900));
    await assert.rejects(guard.admit(request('claude-sonnet-5-5', 'x'.repeat(8_000), 1_000)), PromptTooLong);
    // Three bytes a token would have let 20,000 through: nothing shows that a dense tokenizer would not refuse it.
    await assert.rejects(
      guard.admit(request('claude-sonnet-5-5', 'x'.repeat(20_000))),
      /at most \d+ prompt tokens .* does not fit claude-sonnet-5-5's context window of 10000 tokens/,
    );
  });

  it("admits by the provider's count what the bound cannot, and refuses what the count puts over", async () => {
    const counted: number[] = [];
    let tokens = 5_000;
    const guard = new WindowGuard(
      { sonnet: { context_window: 10_000 } },
      {
        countTokens: (params) => {
          counted.push(JSON.stringify(params.messages).length);
          return Promise.resolve(tokens);
        },
      },
    );
    const params = request('claude-sonnet-5-5', 'x'.repeat(20_000));
    await guard.admit(params);
    // Far inside the window by the bound: not counted.
    await guard.admit(request('claude-sonnet-5-5', 'x'.repeat(100)));
    assert.equal(counted.length, 1);
    // Counted denser than the sizing estimate: refused, and sizing learns it.
    tokens = 9_500;
    assert.ok(guard.fits(params));
    await assert.rejects(guard.admit(params), /counted at 9690 prompt tokens/);
    assert.ok(!guard.fits(params));
    // A count that cannot be had leaves the bound, which refuses.
    const failing = new WindowGuard(
      { sonnet: { context_window: 10_000 } },
      { countTokens: () => Promise.reject(new Error('no count')) },
    );
    await assert.rejects(failing.admit(params), PromptTooLong);
  });

  it('sizes by the bound for the rest of the run once the endpoint fails to count (it has no count_tokens)', async () => {
    let counts = 0;
    const guard = new WindowGuard(
      { sonnet: { context_window: 10_000 } },
      { countTokens: () => (counts++, Promise.reject(new Error('404 no such route'))) },
    );
    const params = request('claude-sonnet-5-5', 'x'.repeat(12_000), 1_000);
    const before = guard.room(params);
    await assert.rejects(guard.admit(params), PromptTooLong);
    // What the window leaves is now measured a token a byte, so what is packed into it is what the bound admits.
    assert.ok(guard.room(params) < before, `${guard.room(params)} < ${before}`);
    await assert.rejects(guard.admit(params), PromptTooLong);
    assert.equal(counts, 1, 'not asked to count again');
  });

  it('takes the window the endpoint states where it is smaller than the table, asked once per model', async () => {
    const asked: string[] = [];
    const guard = new WindowGuard(
      {},
      {
        windowOf: (model) => {
          asked.push(model);
          return Promise.resolve(model.includes('opus') ? 200_000 : model.includes('haiku') ? undefined : 5_000_000);
        },
      },
    );
    // The first request waits for the answer: 300,000 bytes fit the table's 1M window, not the stated 200k.
    await assert.rejects(guard.admit(request('claude-opus-5-5', 'y'.repeat(300_000))), /window of 200000 tokens/);
    assert.equal(guard.window('claude-opus-5-5'), 200_000);
    await guard.admit(request('claude-haiku-5-5', 'y'.repeat(300_000)));
    assert.equal(guard.window('claude-haiku-5-5'), 1_000_000);
    // A larger window than the table's is not taken on the endpoint's word alone.
    await guard.admit(request('claude-sonnet-4-5', 'y'.repeat(100_000)));
    assert.equal(guard.window('claude-sonnet-4-5'), 200_000);
    assert.deepEqual(asked, ['claude-opus-5-5', 'claude-haiku-5-5', 'claude-sonnet-4-5']);
  });

  it('lowers max_tokens to what the window leaves, never below the floor it is given', async () => {
    const guard = new WindowGuard({ sonnet: { context_window: 10_000 } });
    // About 6,000 prompt tokens by the bound: 4,000 left for the answer.
    const params = request('claude-sonnet-5-5', 'x'.repeat(5_000), 8_000);
    const room = guard.outputFor(params, 2_000);
    assert.ok(room < 8_000 && room >= 2_000, String(room));
    await guard.admit({ ...params, max_tokens: room });
    await assert.rejects(guard.admit({ ...params, max_tokens: room + 1 }), PromptTooLong);
    // A floor the window cannot leave: unchanged, for admit() to refuse.
    assert.equal(guard.outputFor(params, 4_500), 8_000);
    // A request that fits keeps its budget.
    assert.equal(guard.outputFor(request('claude-sonnet-5-5', 'x', 8_000), 2_000), 8_000);
  });

  it('learns from the API how far its estimate was short, and the window the endpoint really has', () => {
    // Sized at three bytes a token, as where a count confirms each request near the window.
    const guard = new WindowGuard({}, { countTokens: () => Promise.reject(new Error('not asked here')) });
    const big = request('claude-opus-5-5', 'y'.repeat(300_000));
    assert.ok(guard.fits(big));
    const err = guard.learn(big, 'HTTP 400: prompt is too long: 150000 tokens > 99000 maximum');
    assert.ok(err instanceof PromptTooLong);
    assert.equal(guard.window('claude-opus-5-5'), 100_000);
    assert.ok(!guard.fits(big));
    // Counted at 1.5× the estimate: a request two thirds the size no longer fits either.
    const half = request('claude-opus-5-5', 'y'.repeat(200_000));
    assert.ok(!guard.fits(half));
    assert.equal(guard.learn(big, 'HTTP 400: max_tokens: must be at most 128000'), undefined);
  });

  it('bounds the JSON bytes of a request from above, whatever its strings hold', () => {
    const values: unknown[] = [
      'plain',
      '',
      'line\nbreak "quoted" back\\slash\ttab',
      '\u0000\u001f control',
      'é ü 漢字 🙂',
      '\ud800 lone surrogate \udfff',
      -1.7976931348623157e308,
      Number.MIN_VALUE,
      [1, null, true, false, 'x', [], {}],
      { a: undefined, 'ke"y': { nested: ['漢', 0.1] }, n: null },
      request('claude-sonnet-5-5', 'const x = "\u0001";\n'.repeat(50)),
    ];
    for (const value of values) {
      const exact = Buffer.byteLength(JSON.stringify(value));
      assert.ok(
        jsonBytesAtMost(value) >= exact,
        `${JSON.stringify(value).slice(0, 40)}: ${jsonBytesAtMost(value)} < ${exact}`,
      );
    }
  });

  it('refuses by the exact count what the bound alone cannot show to fit, and lets through what it can', async () => {
    // 'x' is 1 byte in JSON but 6 by the bound: 8,000 of them are 8,000 bytes exactly, 48,000 by the bound.
    const guard = new WindowGuard({ sonnet: { context_window: 10_000 } });
    const params = request('claude-sonnet-5-5', 'x'.repeat(8_000), 500);
    assert.ok(guard.fits(params));
    assert.equal(guard.outputFor(params, 200), 500);
    await guard.admit(params);
    // Control characters take their full six bytes: the bound is the count, and the request does not fit.
    const escaped = request('claude-sonnet-5-5', '\u0001'.repeat(1_500), 500);
    assert.ok(!guard.fits(escaped));
    await assert.rejects(guard.admit(escaped), PromptTooLong);
  });

  it("asks the endpoint for a model's window once, and counts through count_tokens on the Anthropic API only", async () => {
    const fake = await startFakeAnthropic({ contextWindow: 50_000 });
    try {
      const connect = (provider: 'anthropic' | 'compatible') =>
        firstParty({
          provider: { provider, baseUrl: { value: fake.url, from: 'flag' } },
          apiKey: 'test-key',
          requestTimeout: 10,
          env: {},
        } as Parameters<typeof firstParty>[0]);
      const anthropic = connect('anthropic');
      const source = anthropic.window!;
      const [a, b] = await Promise.all([source.windowOf!('claude-opus-5-5'), source.windowOf!('claude-opus-5-5')]);
      assert.deepEqual([a, b], [50_000, 50_000]);
      const params = request('claude-opus-5-5', 'z'.repeat(60_000));
      assert.ok((await source.countTokens!(params)) > 10_000);
      assert.equal(fake.counted(), 1);
      assert.equal(connect('compatible').window!.countTokens, undefined);
      // The guard admits by the count what the byte bound cannot show: 60,000 bytes in a 50k window, counted at a quarter of that.
      await new WindowGuard({}, source).admit(params);
      assert.equal(fake.counted(), 2);
      assert.equal(fake.requests.length, 0);
    } finally {
      await fake.close();
    }
  });
});
