/**
 * The worker's side of provider vscode-lm (engine/providers/vscodeLm.ts through app/editorBridge.ts) over a real
 * Connection pair on a MessageChannel, with the host's side played by the editor fake that forwards to the fake
 * Messages API: what reaches the API, the reply as the client sees it, refusals, and cancellation.
 */
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import Anthropic from '@anthropic-ai/sdk';
import { Connection } from '../../src/app/connection';
import { editorModelsOver } from '../../src/app/editorBridge';
import { connect } from '../../src/engine/connect';
import { FatalApiError, ModelClient, type MessageParams } from '../../src/engine/client';
import { ProviderError, resolveProvider } from '../../src/model/providers';
import { PROVIDER_SETTINGS } from '../../src/app/contributions';
import { serveEditorFake, type EditorFake } from '../helpers/editorFake';
import { useFakeServer } from '../helpers/fakeServer';

const SONNET = 'claude-sonnet-5-5';
const provider = resolveProvider({ provider: 'vscode-lm', via: PROVIDER_SETTINGS }, {});

/** A worker-side and a host-side Connection joined by a MessageChannel, as the worker thread and the extension host are. */
function pair(): { worker: Connection; host: Connection; close: () => void } {
  const { port1, port2 } = new MessageChannel();
  const fail = (problem: string) => assert.fail(`protocol error: ${problem}`);
  const worker = new Connection((m) => port1.postMessage(m), fail);
  const host = new Connection((m) => port2.postMessage(m), fail);
  port1.on('message', (m: unknown) => worker.receive(m));
  port2.on('message', (m: unknown) => host.receive(m));
  return { worker, host, close: () => (port1.close(), port2.close()) };
}

const ask = (over: Partial<MessageParams> = {}): MessageParams => ({
  model: SONNET,
  max_tokens: 100,
  system: [{ type: 'text', text: 'You are a careful reviewer.', cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: 'Say something.' }],
  ...over,
});

describe('provider vscode-lm: the worker-side transport over the host connection', function () {
  this.timeout(20_000);
  const api = useFakeServer();
  let link: ReturnType<typeof pair>;
  let fake: EditorFake;
  let run: AbortController;

  beforeEach(() => {
    link = pair();
    fake = serveEditorFake(link.host, api.server.url);
    run = new AbortController();
  });
  afterEach(() => link.close());

  const connectHere = (requestTimeout = 30) =>
    connect({
      provider,
      apiKey: '',
      requestTimeout,
      env: {},
      editor: editorModelsOver(link.worker, run.signal),
      models: new Map([[SONNET, ['analyze', 'review']]]),
    });
  const client = async (maxAttempts = 3) =>
    new ModelClient({
      connection: await connectHere(),
      maxConcurrency: 2,
      maxAttempts,
      signal: run.signal,
      backoff: { baseDelayMs: 1, maxDelayMs: 5 },
    });

  it('resolves the run models first and takes their context windows', async () => {
    const connection = await connectHere();
    assert.deepEqual(fake.resolved, [SONNET]);
    assert.deepEqual(connection.windows, { [SONNET]: 200_000 });
    assert.equal(connection.capabilities.promptCache, false);
    assert.equal(connection.capabilities.batches, false);
    assert.match(connection.endpoint, /claude-sonnet-5-5 → Fake claude-sonnet-5-5/);
  });

  it('sends the system text at the head of the first user turn, without cache breakpoints, and reads the reply', async () => {
    const reply = await (await client()).create(ask(), { label: 'probe', step: 'analyze' });
    assert.equal(api.server.requests.length, 1);
    assert.equal(api.server.requests[0]!.platform, 'limited');
    const body = api.server.requests[0]!.body as Anthropic.Messages.MessageCreateParams;
    assert.equal(body.system, undefined, 'the editor has no system role');
    assert.deepEqual(body.messages[0], {
      role: 'user',
      content: [
        { type: 'text', text: 'You are a careful reviewer.' },
        { type: 'text', text: 'Say something.' },
      ],
    });
    assert.ok(!JSON.stringify(body).includes('cache_control'));
    assert.equal(reply.role, 'assistant');
    assert.ok(reply.content.length > 0);
    // The editor reports no usage: the host's token counts stand in for it.
    assert.equal(reply.usage.input_tokens, api.server.requests[0]!.usage!.input_tokens);
    assert.equal(reply.usage.cache_read_input_tokens, 0);
  });

  it('carries tool calls and tool results both ways, paired by id', async () => {
    const tools: Anthropic.Messages.Tool[] = [
      {
        name: 'read_file',
        description: 'Reads a file.',
        input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
    ];
    await (
      await client()
    ).create(
      ask({
        tools,
        tool_choice: { type: 'any' },
        messages: [
          { role: 'user', content: 'Read it.' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'const a = 1;' }] },
        ],
      }),
      { label: 'tools', step: 'review' },
    );
    const asked = fake.asked[0]!;
    assert.equal(asked.toolMode, 'required');
    assert.deepEqual(asked.tools[0], {
      name: 'read_file',
      description: 'Reads a file.',
      inputSchema: tools[0]!.input_schema,
    });
    assert.deepEqual(asked.messages[1]!.parts, [
      { type: 'toolCall', callId: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } },
    ]);
    assert.deepEqual(asked.messages[2]!.parts, [{ type: 'toolResult', callId: 'toolu_1', text: 'const a = 1;' }]);
    assert.equal(api.server.requests[0]!.status, 200, 'the fake API accepted the forwarded turns');
  });

  it('stops the run when the user did not allow Skeptic to use the model, without retrying', async () => {
    fake.intercept = async () => ({ kind: 'refused', reason: 'no-permissions', message: 'The user did not consent.' });
    await assert.rejects((await client()).create(ask(), { label: 'x', step: 'analyze' }), (err: Error) => {
      assert.ok(err instanceof FatalApiError);
      assert.match(err.message, /The user did not consent/);
      return true;
    });
    assert.equal(fake.asked.length, 1);
  });

  it('waits out a block and retries', async () => {
    let refusals = 1;
    fake.intercept = async () =>
      refusals-- > 0 ? { kind: 'refused', reason: 'blocked', message: 'Rate limit exceeded.' } : undefined;
    const c = await client();
    const reply = await c.create(ask(), { label: 'x', step: 'analyze' });
    assert.equal(reply.role, 'assistant');
    assert.equal(c.retries, 1);
    assert.equal(fake.asked.length, 2);
  });

  it('a cancelled run tells the host to stop the call it is making', async () => {
    let stopped: AbortSignal | undefined;
    fake.intercept = (_params, signal) => {
      stopped = signal;
      setTimeout(() => run.abort(new Error('cancelled')), 50);
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
    };
    const c = await client();
    await assert.rejects(c.create(ask(), { label: 'x', step: 'analyze' }));
    await until(() => fake.cancelled.length === 1);
    assert.equal(fake.cancelled[0], fake.asked[0]!.callId);
    assert.equal(stopped?.aborted, true);
  });

  it('says why when the editor has no model for the run', async () => {
    fake.models = { kind: 'missing', message: 'no language model in this editor: sign in to one' };
    await assert.rejects(
      connectHere(),
      (err: Error) => err instanceof ProviderError && /sign in to one/.test(err.message),
    );
  });

  it('outside the editor (the CLI) it is a setup problem that names the fix', async () => {
    await assert.rejects(
      connect({ provider, apiKey: '', requestTimeout: 30, env: {} }),
      (err: Error) => err instanceof ProviderError && /only be used from the VS Code extension/.test(err.message),
    );
  });
});

/** Waits for `done`, at most 5 s. */
async function until(done: () => boolean): Promise<void> {
  for (const stop = Date.now() + 5000; !done(); await new Promise((r) => setTimeout(r, 10)))
    if (Date.now() > stop) assert.fail('waited 5 s in vain');
}
