/**
 * The editor's language models (provider vscode-lm) as a Messages API transport: each request is turned into
 * the editor's chat shape (model/editorModels.ts) and sent over the host↔worker connection, where the extension
 * host calls `vscode.lm`; the answer comes back as a Messages API reply. What the editor cannot do is absent from
 * the capability table (model/providers.ts), so the client and runner never send it: no cache breakpoints, no
 * output format, no tool by name (records come through the submit tools, with repair). The editor's own
 * refusals become the SDK's error classes, so the client retries or stops on them as on an HTTP status.
 */
import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import type { EditorChatAnswer, EditorChatParams, EditorMessage } from '../../model/editorModels';
import type { ConnectOptions, Connected } from '../platform';

type MessageParams = Anthropic.Messages.MessageCreateParamsNonStreaming;
type Message = Anthropic.Messages.Message;
type Block = Anthropic.Messages.ContentBlockParam;

/** The editor's refusals as the HTTP statuses the client already judges: consent and a missing model are fatal, a block is waited out. */
const STATUS: Record<Extract<EditorChatAnswer, { kind: 'refused' }>['reason'], number> = {
  'no-permissions': 403,
  'not-found': 404,
  blocked: 429,
  failed: 500,
};

/** Outside the editor there are no editor models: that is a setup problem, named with the fix. */
const NO_EDITOR =
  "the editor's language models (provider vscode-lm) can only be used from the VS Code extension (skeptic.provider); choose another provider here";

export async function connectEditor({ editor, models, requestTimeout }: ConnectOptions): Promise<Connected> {
  if (!editor) return { problem: NO_EDITOR };
  const wanted = [...(models ?? new Map<string, string[]>())].map(([name, uses]) => ({ name, uses }));
  const found = await editor.resolve({ models: wanted });
  if (found.kind === 'missing') return { problem: found.message };
  const create = async (params: MessageParams, options?: { signal?: AbortSignal | null }): Promise<Message> => {
    const timeout = AbortSignal.timeout(requestTimeout * 1000);
    const signal = options?.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const request = toEditorRequest(params, randomUUID());
    let answer: EditorChatAnswer;
    try {
      answer = await editor.chat(request, signal);
    } catch (err) {
      if (timeout.aborted && !options?.signal?.aborted) throw new Anthropic.APIConnectionTimeoutError();
      throw err;
    }
    if (answer.kind === 'refused')
      throw Anthropic.APIError.generate(
        STATUS[answer.reason],
        { error: { type: answer.reason, message: answer.message } },
        answer.message,
        new Headers(),
      );
    return toMessage(answer, params.model, request.callId);
  };
  return {
    messages: { create } as unknown as Pick<Anthropic['messages'], 'create'>,
    errors: Anthropic,
    credentials: "the editor's own sign-in; VS Code asks once whether Skeptic may use its models",
    secrets: [],
    endpoint: found.models.map((m) => `${m.name} → ${m.label} (${m.id})`).join(', ') || 'VS Code',
    windows: Object.fromEntries(found.models.map((m) => [m.name, m.maxInputTokens])),
  };
}

/** A Messages API request in the editor's shape: the system text opens the first user turn (the editor has no system role). */
export function toEditorRequest(params: MessageParams, callId: string): EditorChatParams {
  const system = typeof params.system === 'string' ? [params.system] : (params.system ?? []).map((b) => b.text);
  const messages: EditorMessage[] = params.messages.map((m) => ({
    // The editor has user and assistant turns only.
    role: m.role === 'assistant' ? 'assistant' : 'user',
    parts: (typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content).map(toPart),
  }));
  const first = messages[0];
  if (first?.role === 'user' && system.length)
    first.parts.unshift(...system.filter(Boolean).map((text) => ({ type: 'text' as const, text })));
  const choice = params.tool_choice?.type;
  return {
    callId,
    model: params.model,
    messages,
    tools: (params.tools ?? []).flatMap((t) =>
      'input_schema' in t
        ? [{ name: t.name, description: t.description ?? '', inputSchema: t.input_schema as Record<string, unknown> }]
        : [],
    ),
    toolMode: choice === 'any' || choice === 'tool' ? 'required' : 'auto',
  };
}

function toPart(block: Block | { type: 'text'; text: string }): EditorMessage['parts'][number] {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      return { type: 'toolCall', callId: block.id, name: block.name, input: block.input as Record<string, unknown> };
    case 'tool_result': {
      const text =
        typeof block.content === 'string'
          ? block.content
          : (block.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
      return { type: 'toolResult', callId: block.tool_use_id, text: block.is_error ? `Error: ${text}` : text };
    }
    default:
      // The engine sends text, tool calls and tool results only; anything else is our bug, said plainly.
      throw new Error(`the editor's models cannot be sent a ${block.type} block`);
  }
}

/** The editor's answer as a Messages API reply, under the model name the run priced and logged it by. */
function toMessage(answer: Extract<EditorChatAnswer, { kind: 'reply' }>, model: string, callId: string): Message {
  const content = answer.parts.map((p) =>
    p.type === 'text'
      ? { type: 'text' as const, text: p.text, citations: null }
      : { type: 'tool_use' as const, id: p.callId, name: p.name, input: p.input },
  );
  return {
    id: `msg_editor_${callId}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: content.some((c) => c.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: answer.inputTokens,
      output_tokens: answer.outputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  } as unknown as Message;
}
