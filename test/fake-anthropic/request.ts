/**
 * Reads a Messages API request the way the engine lays it out: which record is asked for, the context
 * packet (last ```json fence of the first user turn) and the source blocks the defaults are built from.
 */
import { z } from 'zod';
import type { SourceLine } from '../../src/scope/functionFinder';

export type Json = Record<string, unknown>;

const Block = z.looseObject({ type: z.string() });
const Content = z.union([z.string(), z.array(Block)]);

export const MessagesBody = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  system: Content.optional(),
  tools: z.array(z.looseObject({ name: z.string(), input_schema: z.looseObject({}).optional() })).optional(),
  tool_choice: z.looseObject({ type: z.string(), name: z.string().optional() }).optional(),
  output_config: z
    .looseObject({ format: z.looseObject({ type: z.string(), schema: z.looseObject({}).optional() }).nullish() })
    .optional(),
  messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), content: Content })).min(1),
});
export type MessagesBody = z.infer<typeof MessagesBody>;

export type { SourceLine };
export interface SourceBlock {
  path: string;
  role: string;
  /** The `lines` attribute (the file's length), or the last numbered line when absent. */
  lineCount: number;
  lines: SourceLine[];
}

export interface ParsedRequest {
  model: string;
  /** The schema's title (or the forced `submit_<Title>` tool's title); null when no record is asked for. */
  record: string | null;
  schema: Json | null;
  /** Set when tool_choice forces a `submit_*` tool: the record goes back as that tool's input. */
  submitTool: string | null;
  packet: Json;
  sources: SourceBlock[];
  /** The packet's `path` (Step1Record) or `file_path`. */
  file: string | null;
  /** The solo packet's function, or the batch's functions, in packet order. */
  functions: string[];
  /** Lens mode: the packet's reviewer (security, logic, …, cross-repo). */
  reviewer: string | null;
  /** Number of user turns: 1 on the first call, more on tool-result and repair turns. */
  turn: number;
  /** The first user turn's text blocks, joined: what a prompt without a packet says. */
  text: string;
}

export const SUBMIT_PREFIX = 'submit_';

/** `honoursToolChoice`: false for a server that ignores tool_choice (Ollama's compatibility). */
export function parseRequest(body: MessagesBody, opts: { honoursToolChoice?: boolean } = {}): ParsedRequest {
  const honours = opts.honoursToolChoice ?? true;
  const texts = textsOf(body.messages[0].content);
  const forced = honours && body.tool_choice?.type === 'tool' ? (body.tool_choice.name ?? null) : null;
  const submitTool = forced?.startsWith(SUBMIT_PREFIX)
    ? forced
    : body.output_config?.format
      ? null
      : (namedSubmitTool(body, texts.at(-1) ?? '') ?? (honours ? null : onlySubmitTool(body)));
  const schema =
    body.output_config?.format?.schema ?? body.tools?.find((t) => t.name === submitTool)?.input_schema ?? null;
  const title = typeof schema?.title === 'string' ? schema.title : null;
  const record = title ?? (schema && submitTool ? submitTool.slice(SUBMIT_PREFIX.length) : null);

  const packet = parsePacket(texts.at(-1) ?? '');
  const solo = text(packet, 'function_qualified_name');
  const batch = list(packet, 'functions').flatMap((f) => text(f, 'function_qualified_name') ?? []);
  return {
    model: body.model,
    record,
    schema,
    submitTool,
    packet,
    sources: texts.flatMap(parseSources),
    file: text(packet, 'path') ?? text(packet, 'file_path'),
    functions: solo ? [solo] : batch,
    reviewer: text(packet, 'reviewer'),
    turn: body.messages.filter((m) => m.role === 'user').length,
    text: texts.join('\n'),
  };
}

/**
 * The cache-first layout offers every record's submit tool and lets the instructions (the last block, before
 * the packet) name the one to call; a model does as told, so the fake does too.
 */
function namedSubmitTool(body: MessagesBody, lastBlock: string): string | null {
  const fence = lastBlock.lastIndexOf('```json');
  const instructions = fence < 0 ? lastBlock : lastBlock.slice(0, fence);
  const named = [...instructions.matchAll(/\b(submit_\w+)\b/g)].at(-1)?.[1] ?? null;
  return named && body.tools?.some((t) => t.name === named) ? named : null;
}

/** Unforced, a model offered exactly one way to submit a record (and asked for one) takes it. */
function onlySubmitTool(body: MessagesBody): string | null {
  const submits = (body.tools ?? []).filter((t) => t.name.startsWith(SUBMIT_PREFIX));
  return submits.length === 1 ? submits[0]!.name : null;
}

/** A string field of a JSON object, or null. */
export function text(obj: unknown, key: string): string | null {
  const v = isObject(obj) ? obj[key] : undefined;
  return typeof v === 'string' ? v : null;
}

/** The object elements of an array field, or []. */
export function list(obj: unknown, key: string): Json[] {
  const v = isObject(obj) ? obj[key] : undefined;
  return Array.isArray(v) ? v.filter(isObject) : [];
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function textsOf(content: MessagesBody['messages'][number]['content']): string[] {
  if (typeof content === 'string') return [content];
  return content.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : []));
}

/** The last ```json fence; JSON.stringify never emits a raw newline, so the first "\n```" after it closes it. */
function parsePacket(block: string): Json {
  const open = block.lastIndexOf('```json');
  if (open < 0) return {};
  const start = block.indexOf('\n', open) + 1;
  const end = block.indexOf('\n```', start);
  if (start === 0 || end < 0) return {};
  try {
    const value: unknown = JSON.parse(block.slice(start, end));
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

const SOURCE_BLOCK = /<untrusted_source_([0-9a-f]{8})\s([^>]*)>\n?([\s\S]*?)<\/untrusted_source_\1>/g;
const ATTRIBUTE = /(\w+)="([^"]*)"/g;
const NUMBERED_LINE = /^\s*(\d+)\| ?(.*)$/;

function parseSources(block: string): SourceBlock[] {
  return [...block.matchAll(SOURCE_BLOCK)].map(([, , attrs, body]) => {
    const attr = Object.fromEntries([...attrs.matchAll(ATTRIBUTE)].map(([, k, v]) => [k, v]));
    const lines = body.split('\n').flatMap((l) => {
      const m = NUMBERED_LINE.exec(l);
      return m ? [{ no: Number(m[1]), text: m[2] }] : [];
    });
    return {
      path: attr.path ?? '',
      role: attr.role ?? 'primary',
      lineCount: Number(attr.lines) || (lines.at(-1)?.no ?? 0),
      lines,
    };
  });
}
