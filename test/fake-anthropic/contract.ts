/**
 * What the Messages API accepts, as its reference documents it (platform.claude.com, *Create a Message*; the
 * field lists of `MessageCreateParamsBase`, the content block params, `Tool`, `ToolChoice` and `OutputConfig`
 * in @anthropic-ai/sdk 1.14): the body is checked strictly, so an unknown field anywhere the fake reads is a 400
 * invalid_request_error as the API answers it; and the conversation is checked as the API checks it: the first
 * turn is the user's, every `tool_use` of an assistant turn is answered by a `tool_result` in the next turn
 * (those first in it), and every `tool_result` answers a `tool_use` of the turn before.
 */
import { z } from 'zod';

const CacheControl = z.strictObject({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() });
const cacheable = { cache_control: CacheControl.nullish() };

const TextBlock = z.strictObject({
  type: z.literal('text'),
  text: z.string(),
  citations: z.array(z.looseObject({ type: z.string() })).nullish(),
  ...cacheable,
});
const ImageBlock = z.strictObject({
  type: z.literal('image'),
  source: z.looseObject({ type: z.enum(['base64', 'url', 'file']) }),
  ...cacheable,
});
const ToolUseBlock = z.strictObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  caller: z.looseObject({ type: z.string() }).optional(),
  toolset_name: z.string().nullish(),
  ...cacheable,
});
const ToolResultBlock = z.strictObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(z.union([TextBlock, ImageBlock]))]).optional(),
  is_error: z.boolean().optional(),
  toolset_name: z.string().nullish(),
  ...cacheable,
});
/** The other documented block params: the fake reads none of them, so only their type is checked. */
const OtherBlock = z.looseObject({
  type: z.enum([
    'document',
    'search_result',
    'thinking',
    'redacted_thinking',
    'server_tool_use',
    'web_search_tool_result',
    'web_fetch_tool_result',
    'code_execution_tool_result',
    'bash_code_execution_tool_result',
    'text_editor_code_execution_tool_result',
    'tool_search_tool_result',
    'container_upload',
  ]),
});
const Block = z.union([TextBlock, ImageBlock, ToolUseBlock, ToolResultBlock, OtherBlock]);
const Content = z.union([z.string(), z.array(Block)]);

const CustomTool = z.strictObject({
  type: z.literal('custom').optional(),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal('object') }),
  strict: z.boolean().optional(),
  input_examples: z.array(z.record(z.string(), z.unknown())).optional(),
  allowed_callers: z.array(z.string()).optional(),
  defer_loading: z.boolean().optional(),
  eager_input_streaming: z.boolean().nullish(),
  ...cacheable,
});
/** Anthropic-defined tools (`web_search_20250305`, `bash_20250124`, …) carry a dated type. */
const ServerTool = z.looseObject({ type: z.string().regex(/_\d{8}$/), name: z.string() });

const parallel = { disable_parallel_tool_use: z.boolean().optional() };
const ToolChoice = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('auto'), ...parallel }),
  z.strictObject({ type: z.literal('any'), ...parallel }),
  z.strictObject({ type: z.literal('tool'), name: z.string(), ...parallel }),
  z.strictObject({ type: z.literal('none') }),
]);

const OutputConfig = z.strictObject({
  effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).nullish(),
  format: z.strictObject({ type: z.literal('json_schema'), schema: z.looseObject({}) }).nullish(),
});

/** A Messages API request body, strictly. */
export const StrictMessagesBody = z.strictObject({
  model: z.string().min(1),
  max_tokens: z.number().int().nonnegative(),
  messages: z.array(z.strictObject({ role: z.enum(['user', 'assistant']), content: Content })).min(1),
  system: z.union([z.string(), z.array(TextBlock)]).optional(),
  tools: z.array(z.union([CustomTool, ServerTool])).optional(),
  tool_choice: ToolChoice.optional(),
  output_config: OutputConfig.optional(),
  ...cacheable,
  container: z.unknown().optional(),
  diagnostics: z.unknown().optional(),
  inference_geo: z.string().nullish(),
  metadata: z.strictObject({ user_id: z.string().nullish() }).optional(),
  service_tier: z.enum(['auto', 'standard_only']).optional(),
  speed: z.enum(['standard', 'fast']).nullish(),
  stop_sequences: z.array(z.string()).optional(),
  stream: z.boolean().optional(),
  // In the reference's create page for most SDK languages, though no longer in the TypeScript SDK's types.
  temperature: z.number().min(0).max(1).optional(),
  top_k: z.number().int().nonnegative().optional(),
  top_p: z.number().min(0).max(1).optional(),
  thinking: z.looseObject({ type: z.enum(['enabled', 'disabled', 'adaptive']) }).optional(),
  user_profile_id: z.string().optional(),
  workspace_id: z.string().optional(),
});
type Body = z.infer<typeof StrictMessagesBody>;

/** Why the API would refuse the body (the invalid_request_error's message), or null. */
export function contractError(raw: unknown): string | null {
  const body = StrictMessagesBody.safeParse(raw);
  if (!body.success) {
    const issue = body.error.issues[0]!;
    const keys = issue.code === 'unrecognized_keys' ? `: ${issue.keys.join(', ')}: Extra inputs are not permitted` : '';
    return `${issue.path.join('.') || 'body'}${keys || `: ${issue.message}`}`;
  }
  return conversationError(body.data.messages);
}

/** The API's checks on the turns: who speaks first, and tool calls paired with their results. */
function conversationError(messages: Body['messages']): string | null {
  if (messages[0]!.role !== 'user') return 'messages.0.role: the first message must use the "user" role';
  for (const [i, m] of messages.entries()) {
    const blocks = typeof m.content === 'string' ? [] : m.content;
    const results = blocks.filter((b) => b.type === 'tool_result') as z.infer<typeof ToolResultBlock>[];
    if (m.role === 'assistant' && results.length)
      return `messages.${i}.content: tool_result blocks may only be sent in a user turn`;
    const previous = messages[i - 1];
    const asked = previous?.role === 'assistant' ? toolUseIds(previous.content) : [];
    const stray = results.find((r) => !asked.includes(r.tool_use_id));
    if (stray)
      return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    const firstOther = blocks.findIndex((b) => b.type !== 'tool_result');
    if (firstOther >= 0 && blocks.slice(firstOther).some((b) => b.type === 'tool_result'))
      return `messages.${i}.content: tool_result blocks must come first in the content, before any other block`;
    if (m.role !== 'assistant') continue;
    const ids = toolUseIds(m.content);
    if (!ids.length) continue;
    const next = messages[i + 1];
    // The conversation's last turn may end in tool calls only where nothing is asked after them.
    if (!next) continue;
    const answered = next.role === 'user' && typeof next.content !== 'string' ? next.content : [];
    const missing = ids.filter((id) => !answered.some((b) => b.type === 'tool_result' && b.tool_use_id === id));
    if (missing.length)
      return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
  }
  return null;
}

function toolUseIds(content: Body['messages'][number]['content']): string[] {
  if (typeof content === 'string') return [];
  return content.flatMap((b) => (b.type === 'tool_use' ? [(b as z.infer<typeof ToolUseBlock>).id] : []));
}
