/**
 * The editor's language models (`skeptic.provider: "vscode-lm"`): what a model call looks like on its way from
 * the worker (engine/providers/vscodeLm.ts, which translates a Messages API request) to the extension host
 * (ui/editorModels.ts, which sends it with `vscode.lm`) and back. Shaped after the editor's own chat API: user
 * and assistant turns of text, tool-call and tool-result parts; tools by name, description and input schema;
 * a tool mode of auto or required. zod/mini: the extension host bundles it through app/protocol.ts.
 */
import * as z from 'zod/mini';

const TextPart = z.object({ type: z.literal('text'), text: z.string() });
const ToolCallPart = z.object({
  type: z.literal('toolCall'),
  callId: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
const ToolResultPart = z.object({ type: z.literal('toolResult'), callId: z.string(), text: z.string() });

export const EditorMessage = z.object({
  role: z.enum(['user', 'assistant']),
  parts: z.array(z.discriminatedUnion('type', [TextPart, ToolCallPart, ToolResultPart])),
});
export type EditorMessage = z.infer<typeof EditorMessage>;

export const EditorTool = z.object({
  name: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
});

/** One chat request; `callId` names it for a cancel. */
export const EditorChatParams = z.object({
  callId: z.string(),
  /** The model as the run names it (what EditorModels resolved it to is the host's to remember). */
  model: z.string(),
  messages: z.array(EditorMessage),
  tools: z.array(EditorTool),
  toolMode: z.enum(['auto', 'required']),
});
export type EditorChatParams = z.infer<typeof EditorChatParams>;

/**
 * Why the editor refused a request, by the editor's own error codes: the user did not allow Skeptic to use the
 * model (`no-permissions`), the requester is blocked for now (`blocked`: a quota or rate limit), the model is gone
 * (`not-found`), anything else (`failed`).
 */
export const REFUSALS = ['no-permissions', 'blocked', 'not-found', 'failed'] as const;

export const EditorChatAnswer = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('reply'),
    /** The model that answered, by the editor's id. */
    model: z.string(),
    parts: z.array(z.discriminatedUnion('type', [TextPart, ToolCallPart])),
    /** Counted by the model's own tokenizer: the editor reports no usage. */
    inputTokens: z.int().check(z.minimum(0)),
    outputTokens: z.int().check(z.minimum(0)),
  }),
  z.object({ kind: z.literal('refused'), reason: z.enum(REFUSALS), message: z.string() }),
]);
export type EditorChatAnswer = z.infer<typeof EditorChatAnswer>;

/** The run's models, each with the steps or roles that use it: the host finds (or asks for) an editor model for each. */
export const EditorModelsParams = z.object({
  models: z.array(z.object({ name: z.string(), uses: z.array(z.string()) })),
});
export type EditorModelsParams = z.infer<typeof EditorModelsParams>;

export const EditorModelsAnswer = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('found'),
    /** Per name asked for: the editor's model, and how many tokens its input may hold. */
    models: z.array(z.object({ name: z.string(), id: z.string(), label: z.string(), maxInputTokens: z.int() })),
  }),
  /** No model could be had (none in the editor, or the user chose none): why, with the fix. */
  z.object({ kind: z.literal('missing'), message: z.string() }),
]);
export type EditorModelsAnswer = z.infer<typeof EditorModelsAnswer>;

/** The worker's way to the host's models, over the typed connection (the worker implements it, the engine calls it). */
export interface EditorModels {
  resolve(params: EditorModelsParams, signal?: AbortSignal): Promise<EditorModelsAnswer>;
  chat(params: EditorChatParams, signal: AbortSignal): Promise<EditorChatAnswer>;
}
