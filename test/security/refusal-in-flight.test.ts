/**
 * A server that refuses cache_control, met by two requests already on their way: the first refusal turns the
 * markers off for the rest of the run, and the second refusal (of a request sent while they were still on) must
 * still be taken as the same refusal and resent without them, not fail its unit. The server holds both refusals
 * until both requests have arrived, so the race is forced, not hoped for.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { ModelClient, type MessageParams } from '../../src/engine/client';
import { firstParty } from '../../src/engine/connect';
import { resolveProvider } from '../../src/model/providers';
import { PROVIDER_SETTINGS } from '../../src/app/contributions';
import { useFakeServer } from '../helpers/fakeServer';
import { forward, hostile, relay } from '../helpers/hostileServer';

const ask = (text: string): MessageParams => ({
  model: 'claude-sonnet-5-5',
  max_tokens: 100,
  system: [{ type: 'text', text: 'You are a careful reviewer.', cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: text }],
});

describe('a refusal met by requests already in flight', function () {
  this.timeout(20_000);
  const fake = useFakeServer();

  it('resends every request that carried the refused cache markers, and says so once', async () => {
    const held: ServerResponse[] = [];
    let marked = 0;
    let plain = 0;
    const server = await hostile((req, res, body) => {
      if (req.method === 'POST' && body.includes('"cache_control"')) {
        marked++;
        held.push(res);
        if (held.length < 2) return;
        for (const r of held.splice(0)) {
          r.writeHead(400, { 'content-type': 'application/json' });
          r.end(
            JSON.stringify({
              type: 'error',
              error: { type: 'invalid_request_error', message: 'cache_control: unknown field' },
            }),
          );
        }
        return;
      }
      if (req.method === 'POST') plain++;
      forward(req, body, new URL(`/limited${req.url ?? ''}`, fake.server.url), relay(res));
    });
    try {
      const warnings: string[] = [];
      const provider = resolveProvider({ via: PROVIDER_SETTINGS }, { ANTHROPIC_BASE_URL: server.url });
      const client = new ModelClient({
        connection: firstParty({ provider, apiKey: 'test-key', requestTimeout: 10, env: {} }),
        maxConcurrency: 2,
        maxAttempts: 1,
        signal: new AbortController().signal,
        onWarning: (w) => warnings.push(w),
      });
      const tag = (label: string) => ({ label, step: 'review' as const });
      const answers = await Promise.allSettled([
        client.create(ask('first'), tag('a')),
        client.create(ask('second'), tag('b')),
      ]);
      assert.deepEqual(
        answers.map((a) => (a.status === 'fulfilled' ? 'answered' : String(a.reason))),
        ['answered', 'answered'],
      );
      assert.deepEqual([marked, plain], [2, 2], 'both went with markers, both were resent without');
      assert.equal(
        warnings.filter((w) => w.includes('the endpoint refused cache_control')).length,
        1,
        warnings.join('\n'),
      );
    } finally {
      await server.close();
    }
  });
});
