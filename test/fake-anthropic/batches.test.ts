import assert from 'node:assert/strict';
import Anthropic, { BadRequestError } from '@anthropic-ai/sdk';
import { startFakeAnthropic, type FakeAnthropic } from './server';

describe('fake Message Batches: cancel, as the API reference describes it', () => {
  let server: FakeAnthropic;
  let client: Anthropic;
  before(async () => {
    server = await startFakeAnthropic({ port: 0 });
    client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
  });
  after(() => server.close());
  afterEach(() => server.setBatchDelay(0));

  const request = (custom_id: string) => ({
    custom_id,
    params: { model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hi' }] },
  });

  it('a batch canceled before it runs is canceling, then ended with every request canceled', async () => {
    server.setBatchDelay(60_000);
    const batch = await client.messages.batches.create({ requests: [request('a'), request('b')] });
    const canceling = await client.messages.batches.cancel(batch.id);
    assert.equal(canceling.processing_status, 'canceling');
    assert.ok(canceling.cancel_initiated_at);

    let ended = await client.messages.batches.retrieve(batch.id);
    for (let i = 0; ended.processing_status !== 'ended' && i < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ended = await client.messages.batches.retrieve(batch.id);
    }
    assert.equal(ended.processing_status, 'ended');
    assert.deepEqual(ended.request_counts, { processing: 0, succeeded: 0, errored: 0, canceled: 2, expired: 0 });
    const results = [];
    for await (const line of await client.messages.batches.results(batch.id)) results.push(line.result.type);
    assert.deepEqual(results, ['canceled', 'canceled']);

    // Ended: nothing left to cancel.
    await assert.rejects(client.messages.batches.cancel(batch.id), BadRequestError);
  });
});
