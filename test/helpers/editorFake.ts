/**
 * A host-side stand-in for VS Code's language models (provider vscode-lm) that forwards each chat request to the
 * project's fake Messages API through the real SDK, the way a `LanguageModelChatProvider` for Claude would. It
 * goes to the fake's limited route: a model the editor serves is, like that server, never forced to a tool by
 * name, given no output format and no cache breakpoints (the editor's API has none of them). The
 * editor's turns and parts become Messages API turns and blocks, a required tool mode becomes `tool_choice: any`,
 * and the usage it gets back stands for the model's own token counts. It answers on a host-side Connection the
 * requests the worker sends (app/protocol.ts), and records what it was asked and which calls were cancelled.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Connection } from '../../src/app/connection';
import { CancelEditorChat, EditorChat, ResolveEditorModels } from '../../src/app/protocol';
import type { EditorChatAnswer, EditorChatParams, EditorModelsAnswer } from '../../src/model/editorModels';

/** What a provider of the editor would send as the output limit: the editor's API has none of its own. */
const MAX_OUTPUT = 32_000;

export interface EditorFake {
  /** Every chat request, as the host received it. */
  readonly asked: EditorChatParams[];
  /** The call ids the worker cancelled. */
  readonly cancelled: string[];
  /** The models the run asked to resolve. */
  readonly resolved: string[];
  /** Answers in place of the model, for a test that needs a refusal or a slow call; undefined: forward. */
  intercept?: (params: EditorChatParams, signal: AbortSignal) => Promise<EditorChatAnswer | undefined>;
  /** What resolving answers instead of finding every model. */
  models?: EditorModelsAnswer;
}

export function serveEditorFake(host: Connection, baseUrl: string): EditorFake {
  // An explicit timeout: the SDK otherwise refuses a non-streaming call whose output limit is this large.
  const client = new Anthropic({
    apiKey: 'editor-fake',
    baseURL: `${baseUrl}/limited`,
    maxRetries: 0,
    timeout: 120_000,
  });
  const calls = new Map<string, AbortController>();
  const fake: EditorFake = { asked: [], cancelled: [], resolved: [] };
  host.onRequest(ResolveEditorModels, ({ models }): EditorModelsAnswer => {
    fake.resolved.push(...models.map((m) => m.name));
    return (
      fake.models ?? {
        kind: 'found' as const,
        models: models.map((m) => ({ name: m.name, id: m.name, label: `Fake ${m.name}`, maxInputTokens: 200_000 })),
      }
    );
  });
  host.onNotification(CancelEditorChat, ({ callId }) => {
    fake.cancelled.push(callId);
    calls.get(callId)?.abort(new Error('cancelled by the worker'));
  });
  host.onRequest(EditorChat, async (params): Promise<EditorChatAnswer> => {
    fake.asked.push(params);
    const stop = new AbortController();
    calls.set(params.callId, stop);
    try {
      const instead = await fake.intercept?.(params, stop.signal);
      if (instead) return instead;
      const reply = await client.messages.create(toMessagesApi(params), { signal: stop.signal });
      return {
        kind: 'reply' as const,
        model: reply.model,
        parts: reply.content.flatMap((b): Extract<EditorChatAnswer, { kind: 'reply' }>['parts'] =>
          b.type === 'text'
            ? [{ type: 'text' as const, text: b.text }]
            : b.type === 'tool_use'
              ? [{ type: 'toolCall' as const, callId: b.id, name: b.name, input: b.input as Record<string, unknown> }]
              : [],
        ),
        inputTokens: reply.usage.input_tokens,
        outputTokens: reply.usage.output_tokens,
      };
    } finally {
      calls.delete(params.callId);
    }
  });
  return fake;
}

/** The editor's request as the Messages API body a Claude provider would send. */
export function toMessagesApi(p: EditorChatParams): Anthropic.Messages.MessageCreateParamsNonStreaming {
  return {
    model: p.model,
    max_tokens: MAX_OUTPUT,
    messages: p.messages.map((m) => ({
      role: m.role,
      content: m.parts.map((part): Anthropic.Messages.ContentBlockParam => {
        if (part.type === 'text') return { type: 'text', text: part.text };
        if (part.type === 'toolCall') return { type: 'tool_use', id: part.callId, name: part.name, input: part.input };
        return { type: 'tool_result', tool_use_id: part.callId, content: part.text };
      }),
    })),
    ...(p.tools.length
      ? {
          tools: p.tools.map((t) => ({
            name: t.name,
            description: t.description,
            input_schema: t.inputSchema as Anthropic.Messages.Tool.InputSchema,
          })),
          tool_choice: { type: p.toolMode === 'required' ? 'any' : 'auto' },
        }
      : {}),
  };
}
