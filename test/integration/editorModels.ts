/**
 * Provider vscode-lm in a real extension host: a LanguageModelChatProvider of the test-only extension
 * test/e2e/models-extension (vendor "skeptic-e2e", the only models this editor has) forwards each request to the
 * project's fake Messages API through the real SDK, the way a provider for Claude would; Skeptic's review
 * reaches it only through `vscode.lm` (src/ui/editorModels.ts). The findings must be the first-party
 * provider's on the fixture; a refusal and a cancel travel back the editor's way.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/app/contributions';
import { OPUS, SONNET } from '../../src/model/models';
import type { SkepticApi } from '../../src/extension';
import type { Scenario } from '../fake-anthropic/scenario';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { toMessagesApi } from '../helpers/editorFake';
import { withTimeout } from './wait';
import type { EditorChatParams, EditorMessage } from '../../src/model/editorModels';

const REPO = join(__dirname, '../../..');
const MODELS_EXTENSION = 'skeptic-dev.skeptic-e2e-models';

/*
 * The provider API is final since VS Code 1.104; the @types/vscode this project builds against (its minimum
 * engine) predates it, so the shapes the test implements are declared here, as the API documents them.
 */
interface ChatInformation {
  id: string;
  name: string;
  family: string;
  version: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  capabilities: { toolCalling?: boolean; imageInput?: boolean };
}
interface RequestMessage {
  role: vscode.LanguageModelChatMessageRole;
  content: readonly unknown[];
}
interface ResponseOptions {
  tools?: readonly vscode.LanguageModelChatTool[];
  toolMode: vscode.LanguageModelChatToolMode;
}
interface ChatProvider {
  provideLanguageModelChatInformation(options: { silent: boolean }, token: vscode.CancellationToken): ChatInformation[];
  provideLanguageModelChatResponse(
    model: ChatInformation,
    messages: readonly RequestMessage[],
    options: ResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart>,
    token: vscode.CancellationToken,
  ): Promise<void>;
  provideTokenCount(
    model: ChatInformation,
    text: string | RequestMessage,
    token: vscode.CancellationToken,
  ): Promise<number>;
}

/** What the provider saw, and what a test makes it do instead of forwarding. */
interface ProviderLog {
  requests: Array<{ model: string; tools: string[]; toolMode: 'auto' | 'required' }>;
  cancelled: number;
  instead?: (token: vscode.CancellationToken) => Promise<void>;
}

describe('Skeptic on the editor’s language models (provider vscode-lm)', () => {
  let server: FakeAnthropic;
  let scenario: Scenario;
  let api: SkepticApi;
  let folder: string;
  let registration: vscode.Disposable;
  let savedKey: string | undefined;
  const log: ProviderLog = { requests: [], cancelled: 0 };
  const uri = (rel: string) => vscode.Uri.file(join(folder, rel));
  const diagnostics = (rel: string) => vscode.languages.getDiagnostics(uri(rel)).filter((d) => d.source === 'Skeptic');
  const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? String(d.code.value) : String(d.code));
  const at = (ds: vscode.Diagnostic[]) =>
    ds.map((d) => `${d.range.start.line} ${codeOf(d)} ${vscode.DiagnosticSeverity[d.severity]}`).sort();
  const reviewShop = () => vscode.commands.executeCommand(COMMANDS.reviewFiles, uri('shop'), [uri('shop')]);
  const settings = () => vscode.workspace.getConfiguration('skeptic');

  before(async () => {
    folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    scenario = JSON.parse(readFileSync(join(REPO, 'test/fixtures/shop.scenario.json'), 'utf8')) as Scenario;
    server = await startFakeAnthropic({ scenario });
    const models = vscode.extensions.getExtension<{ register(p: ChatProvider): vscode.Disposable }>(MODELS_EXTENSION);
    assert.ok(
      models,
      `${MODELS_EXTENSION} is not loaded: run the suite with --with-extension test/e2e/models-extension`,
    );
    registration = (await models.activate()).register(forwardingProvider(server.url, log));
    // Activated first: the workbench refuses a setting whose extension it has not registered yet.
    api = (await vscode.extensions.getExtension<SkepticApi>('skeptic-dev.skeptic')!.activate())!;
    await settings().update('provider', 'vscode-lm', vscode.ConfigurationTarget.Global);
    await settings().update('cacheResults', false, vscode.ConfigurationTarget.Global);
    // The first-party review to compare with goes to this suite's fake server too.
    await settings().update('baseUrl', server.url, vscode.ConfigurationTarget.Global);
    // No Anthropic key anywhere: the editor's models need none.
    savedKey = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
  });
  after(async () => {
    for (const key of ['provider', 'cacheResults', 'baseUrl'])
      await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
    if (savedKey !== undefined) process.env.ANTHROPIC_API_KEY = savedKey;
    registration?.dispose();
    await server?.close();
  });
  beforeEach(async () => {
    server.setScenario(scenario);
    server.reset();
    log.requests.length = 0;
    log.cancelled = 0;
    delete log.instead;
    await vscode.commands.executeCommand(COMMANDS.clear);
  });

  it('the editor lists the test vendor’s models to Skeptic', async () => {
    const listed = await vscode.lm.selectChatModels({ vendor: 'skeptic-e2e' });
    assert.deepEqual(listed.map((m) => m.id).sort(), [OPUS, SONNET].sort());
  });

  it('a review through vscode.lm finds what the first-party API finds on the fixture, into Problems', async () => {
    const problems = () => ({ cart: at(diagnostics('shop/cart.ts')), price: at(diagnostics('shop/price.ts')) });
    // The first-party API first, on the same fake and with whatever this workspace has dismissed.
    await settings().update('provider', 'anthropic', vscode.ConfigurationTarget.Global);
    process.env.ANTHROPIC_API_KEY = 'first-party-key';
    try {
      await reviewShop();
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
      await settings().update('provider', 'vscode-lm', vscode.ConfigurationTarget.Global);
    }
    const firstParty = problems();
    assert.ok(server.requests.length > 0 && server.requests.every((r) => r.platform === 'anthropic'));
    // The fixture's findings (an earlier suite's dismissal for this workspace may hide its A6).
    assert.ok(firstParty.cart.includes('16 A1 Error'), JSON.stringify(firstParty));
    assert.equal(firstParty.price.length, 4, JSON.stringify(firstParty));
    server.reset();
    await vscode.commands.executeCommand(COMMANDS.clear);

    await reviewShop();
    assert.deepEqual(problems(), firstParty);
    // Every call went through the editor's provider, to the fake's limited route (no tool by name, no cache).
    assert.ok(log.requests.length > 0);
    assert.equal(server.requests.length, log.requests.length, 'one API request per editor request');
    assert.ok(
      server.requests.every((r) => r.platform === 'limited'),
      'nothing went to the first-party route',
    );
    assert.ok(log.requests.some((r) => r.model === OPUS) && log.requests.some((r) => r.model === SONNET));
    assert.ok(
      log.requests.every((r) => r.tools.length > 0),
      'records come through the submit tools',
    );
    // Billed by the editor's plan: calls are counted, dollars are not.
    const lastRun = api.findingsView().find((l) => l.startsWith('Last run:'));
    assert.match(lastRun ?? '', /^Last run: shop — \d+ files · \d+ calls · editor's plan · \d+:\d\d$/);
  });

  it('a model the editor does not offer is chosen with a picker once, then remembered for the workspace', async () => {
    const reviewPrice = () =>
      vscode.commands.executeCommand(COMMANDS.reviewFiles, uri('shop/price.ts'), [uri('shop/price.ts')]);
    // A name no editor model has (by id, family or a part of either): every step asks for it.
    await settings().update('model', 'claude-e2e-absent', vscode.ConfigurationTarget.Global);
    try {
      let finished = false;
      const first = reviewPrice().then(() => (finished = true));
      // The run waits on the picker before its first call: accept its first entry once it shows.
      let tries = 0;
      while (!finished && log.requests.length === 0) {
        assert.ok(++tries < 200, 'the run made no call and did not finish: was the picker never shown?');
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        await new Promise((r) => setTimeout(r, 250));
      }
      await withTimeout(first, 60_000, 'the review after the pick');
      const picked = [...new Set(log.requests.map((r) => r.model))];
      assert.equal(picked.length, 1, `one editor model for every step: ${picked.join(', ')}`);
      assert.ok([OPUS, SONNET].includes(picked[0]!));
      assert.ok(diagnostics('shop/price.ts').length > 0, JSON.stringify(api.notices.slice(-2)));

      // Remembered: the next review asks nothing (a picker would hold it past the timeout) and uses the same model.
      log.requests.length = 0;
      await vscode.commands.executeCommand(COMMANDS.clear);
      await withTimeout(reviewPrice(), 60_000, 'a review with the remembered model, without a picker');
      assert.deepEqual([...new Set(log.requests.map((r) => r.model))], picked);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await settings().update('model', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a refusal by the editor (no permission) stops the review with the editor’s reason, nothing sent', async () => {
    log.instead = () => Promise.reject(vscode.LanguageModelError.NoPermissions('the user did not allow Skeptic'));
    await vscode.commands.executeCommand(COMMANDS.reviewFiles, uri('shop/price.ts'), [uri('shop/price.ts')]);
    const last = api.notices.at(-1);
    assert.equal(last?.level, 'error', JSON.stringify(api.notices.slice(-3)));
    assert.match(last!.message, /the user did not allow Skeptic/);
    assert.equal(log.requests.length, 1, 'a refusal is not retried');
    assert.equal(server.requests.length, 0);
    assert.deepEqual(diagnostics('shop/price.ts'), []);
  });

  it('"Cancel Review" cancels the editor request under way', async () => {
    let started!: () => void;
    const underWay = new Promise<void>((resolve) => (started = resolve));
    log.instead = (token) =>
      new Promise<void>((_, reject) => {
        started();
        // Bounded: a cancel that never arrives fails the test instead of hanging it.
        const timer = setTimeout(() => reject(new Error('never cancelled')), 60_000);
        token.onCancellationRequested(() => {
          clearTimeout(timer);
          log.cancelled++;
          reject(new vscode.CancellationError());
        });
      });
    const review = vscode.commands.executeCommand(COMMANDS.reviewFiles, uri('shop/price.ts'), [uri('shop/price.ts')]);
    await withTimeout(underWay, 60_000, 'the first editor request');
    await vscode.commands.executeCommand(COMMANDS.cancel);
    await withTimeout(review, 30_000, 'the review to stop after the cancel');
    await until(() => log.cancelled > 0, 10_000, 'the provider’s cancellation token');
    assert.equal(server.requests.length, 0);
  });
});

/** The provider: Skeptic's models under their own names; each request forwarded to the fake's limited route. */
function forwardingProvider(baseUrl: string, log: ProviderLog): ChatProvider {
  const client = new Anthropic({
    apiKey: 'editor-plan',
    baseURL: `${baseUrl}/limited`,
    maxRetries: 0,
    timeout: 120_000,
  });
  const info = (id: string, name: string): ChatInformation => ({
    id,
    name,
    family: id,
    version: '1',
    maxInputTokens: 200_000,
    maxOutputTokens: 32_000,
    capabilities: { toolCalling: true },
  });
  return {
    provideLanguageModelChatInformation: () => [info(SONNET, 'Sonnet (e2e)'), info(OPUS, 'Opus (e2e)')],
    async provideLanguageModelChatResponse(model, messages, options, progress, token) {
      const toolMode = options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto';
      log.requests.push({ model: model.id, tools: (options.tools ?? []).map((t) => t.name), toolMode });
      if (log.instead) return log.instead(token);
      const stop = new AbortController();
      const listener = token.onCancellationRequested(() => stop.abort());
      try {
        const request: EditorChatParams = {
          callId: 'e2e',
          model: model.id,
          messages: messages.map(fromEditor),
          tools: (options.tools ?? []).map((t) => ({
            name: t.name,
            description: t.description,
            inputSchema: (t.inputSchema ?? {}) as Record<string, unknown>,
          })),
          toolMode,
        };
        const reply = await client.messages.create(toMessagesApi(request), { signal: stop.signal });
        for (const block of reply.content) {
          if (block.type === 'text') progress.report(new vscode.LanguageModelTextPart(block.text));
          else if (block.type === 'tool_use')
            progress.report(new vscode.LanguageModelToolCallPart(block.id, block.name, block.input as object));
        }
      } finally {
        listener.dispose();
      }
    },
    // A stand-in tokenizer: about four characters a token.
    provideTokenCount: (_model, text) =>
      Promise.resolve(Math.ceil((typeof text === 'string' ? text : JSON.stringify(text.content)).length / 4)),
  };
}

/** The editor's message as the project's editor-chat shape, so the test fake's Messages API mapping applies. */
function fromEditor(m: RequestMessage): EditorMessage {
  const parts = m.content.flatMap((p): EditorMessage['parts'] => {
    if (p instanceof vscode.LanguageModelTextPart) return [{ type: 'text', text: p.value }];
    if (p instanceof vscode.LanguageModelToolCallPart)
      return [{ type: 'toolCall', callId: p.callId, name: p.name, input: p.input as Record<string, unknown> }];
    if (p instanceof vscode.LanguageModelToolResultPart)
      return [
        {
          type: 'toolResult',
          callId: p.callId,
          text: p.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join(''),
        },
      ];
    return [];
  });
  return { role: m.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user', parts };
}

async function until(ok: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
