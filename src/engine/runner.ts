/**
 * One sub-agent call, start to finish: send the request, serve read-only tool calls, take the record
 * from the reply, validate it (schema, then the caller's semantic checks), and on rejection run up to
 * two repair turns that quote the errors. A unit that still fails is reported with its reason — a
 * malformed reply is never used, and never silently dropped.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { z } from 'zod';
import { describeApiError, FatalApiError, refusesStructuredOutput, type Message, type MessageParams, type ModelClient } from './client';
import { PROMPT_VERSION } from './promptVersion';
import { ResultCache } from './resultCache';
import { runTool, TOOL_DEFINITIONS, type ToolContext } from './tools';
import type { Effort } from '../model/models';

type ContentBlock = Anthropic.Messages.ContentBlockParam;
type MessageTurn = Anthropic.Messages.MessageParam;

export interface UnitSpec<T> {
  /** Names the unit in progress, retries and the report's list of failures. */
  label: string;
  /** The step the call belongs to, for usage accounting. */
  step: string;
  model: string;
  system: string;
  record: z.ZodType<T>;
  content: ContentBlock[];
  /** Offer read_file / grep / list_dir. Off for calls that must not see source (synthesis). */
  tools: boolean;
  maxTokens: number;
  /** Checks the schema cannot express (lines exist, the right functions answered). Returns errors. */
  check?: (value: T) => string[];
  /**
   * When repairs are used up and the last reply still fails `check`: keep what is sound and say what was
   * left out (e.g. a synthesis whose one bad cross-file finding should not cost the whole synthesis).
   */
  salvage?: (value: T) => { value: T; leftOut: string[] };
}

export type UnitOutcome<T> = { ok: true; value: T; repairs: number; leftOut?: string[] } | { ok: false; reason: string };


export const MAX_REPAIRS = 2;
const MAX_TOOL_TURNS = 8;

export class SubAgentRunner {
  /** Flips to forced `submit_<record>` tool calls once the API refuses structured outputs. */
  private structured = true;
  repairs = 0;
  cacheHits = 0;
  private readonly effort: Effort | undefined;
  private readonly cache: ResultCache | undefined;

  constructor(
    private readonly client: ModelClient,
    private readonly toolCtx: ToolContext,
    opts: { effort?: Effort; cache?: ResultCache } = {},
  ) {
    this.effort = opts.effort;
    this.cache = opts.cache;
  }

  /** A unit answered before (same model, prompt, schema and input) comes from the result cache; a new one is stored. */
  async run<T>(spec: UnitSpec<T>): Promise<UnitOutcome<T>> {
    const key = this.cache && this.cacheKey(spec);
    if (this.cache && key) {
      const stored = spec.record.safeParse(await this.cache.get(key));
      if (stored.success && (spec.check?.(stored.data) ?? []).length === 0) {
        this.cacheHits++;
        return { ok: true, value: stored.data, repairs: 0 };
      }
    }
    const outcome = await this.converse(spec);
    // A salvaged reply is not stored: the next run gets another chance at the whole record.
    if (this.cache && key && outcome.ok && !outcome.leftOut) await this.cache.put(key, outcome.value);
    return outcome;
  }

  /**
   * Sends the unit's request cut to one output token, only so its cached prefix gets written; the reply is
   * not used. Best effort: a failure just means the calls that follow write the prefix themselves.
   */
  async prime<T>(spec: UnitSpec<T>): Promise<void> {
    if (this.cache && (await this.cache.get(this.cacheKey(spec))) !== undefined) return;
    try {
      await this.client.create(this.params({ ...spec, maxTokens: 1 }, [{ role: 'user', content: spec.content }], this.structured), `${spec.label} (cache prime)`, spec.step);
    } catch (err) {
      if (err instanceof FatalApiError || this.client.signal.aborted) throw err;
    }
  }

  private cacheKey<T>(spec: UnitSpec<T>): string {
    return ResultCache.key({ prompts: PROMPT_VERSION, model: spec.model, system: spec.system, schema: jsonSchemaOf(spec.record), content: spec.content, effort: this.effort ?? null, tools: spec.tools });
  }

  private async converse<T>(spec: UnitSpec<T>): Promise<UnitOutcome<T>> {
    const turns: MessageTurn[] = [{ role: 'user', content: spec.content }];
    let repairs = 0;
    let toolTurns = 0;
    for (;;) {
      let reply: Message;
      try {
        reply = await this.send(spec, turns);
      } catch (err) {
        if (err instanceof FatalApiError || this.client.signal.aborted) throw err;
        return { ok: false, reason: `model call failed: ${describeApiError(err)}` };
      }
      turns.push({ role: 'assistant', content: reply.content as ContentBlock[] });

      const readCalls = reply.content.filter((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use' && !b.name.startsWith('submit_'));
      if (readCalls.length > 0) {
        toolTurns++;
        turns.push({ role: 'user', content: await this.serveTools(readCalls, toolTurns > MAX_TOOL_TURNS) });
        continue;
      }

      const errors = this.accept(spec, reply);
      if (errors.ok) return { ok: true, value: errors.value, repairs };
      if (repairs >= MAX_REPAIRS) {
        const saved = errors.parsed !== undefined && spec.salvage ? spec.salvage(errors.parsed) : undefined;
        if (saved) return { ok: true, value: saved.value, repairs, leftOut: saved.leftOut };
        return { ok: false, reason: `reply rejected after ${MAX_REPAIRS} repair turns: ${errors.errors.join('; ')}` };
      }
      repairs++;
      this.repairs++;
      turns.push({ role: 'user', content: this.repairTurn(reply, errors.errors) });
    }
  }

  private async send<T>(spec: UnitSpec<T>, messages: MessageTurn[]): Promise<Message> {
    // Decided per request: calls already in flight when the first refusal arrives switch over too.
    const structured = this.structured;
    try {
      return await this.client.create(this.params(spec, messages, structured), spec.label, spec.step);
    } catch (err) {
      if (!structured || !refusesStructuredOutput(err)) throw err;
      this.structured = false;
      return this.client.create(this.params(spec, messages, false), spec.label, spec.step);
    }
  }

  private params<T>(spec: UnitSpec<T>, messages: MessageTurn[], structured: boolean): MessageParams {
    const system: Anthropic.Messages.TextBlockParam[] = [{ type: 'text', text: spec.system, cache_control: { type: 'ephemeral' } }];
    const base = { model: spec.model, max_tokens: spec.maxTokens, system, messages };
    const effort = this.effort ? { effort: this.effort } : {};
    if (structured) {
      return {
        ...base,
        ...(spec.tools ? { tools: TOOL_DEFINITIONS } : {}),
        output_config: { format: { type: 'json_schema', schema: jsonSchemaOf(spec.record) }, ...effort },
      };
    }
    const submit = submitTool(spec.record);
    return {
      ...base,
      tools: [submit],
      tool_choice: { type: 'tool', name: submit.name },
      ...(this.effort ? { output_config: effort } : {}),
    };
  }

  /** The record, or the errors against it; `parsed` is the schema-valid record that failed only the semantic check. */
  private accept<T>(spec: UnitSpec<T>, reply: Message): { ok: true; value: T } | { ok: false; errors: string[]; parsed?: T } {
    if (reply.stop_reason === 'max_tokens') return { ok: false, errors: ['the reply was cut off at max_tokens; answer with a shorter record (one sentence per action and rationale)'] };
    const raw = recordPayload(reply, recordTitle(spec.record));
    if (!raw.ok) return raw;
    const parsed = spec.record.safeParse(raw.value);
    if (!parsed.success) return { ok: false, errors: formatIssues(parsed.error) };
    const semantic = spec.check?.(parsed.data) ?? [];
    return semantic.length ? { ok: false, errors: semantic, parsed: parsed.data } : { ok: true, value: parsed.data };
  }

  private async serveTools(calls: Anthropic.Messages.ToolUseBlock[], exhausted: boolean): Promise<ContentBlock[]> {
    return Promise.all(
      calls.map(async (call): Promise<ContentBlock> => {
        const outcome = exhausted
          ? { content: 'tool budget used up: answer now with the record', is_error: true }
          : await runTool(call.name, call.input, this.toolCtx);
        return { type: 'tool_result', tool_use_id: call.id, content: outcome.content, is_error: outcome.is_error };
      }),
    );
  }

  private repairTurn(reply: Message, errors: string[]): ContentBlock[] {
    const text =
      'Your previous reply was rejected and has not been used:\n' +
      errors.map((e) => `- ${e}`).join('\n') +
      '\nAnswer again with the complete corrected record (every field), and nothing else.';
    const submit = reply.content.find((b) => b.type === 'tool_use' && b.name.startsWith('submit_'));
    return submit && submit.type === 'tool_use' ? [{ type: 'tool_result', tool_use_id: submit.id, content: text, is_error: true }] : [{ type: 'text', text }];
  }
}

/** The record from a reply: the JSON text of a structured output, or the input of a submit tool call. */
function recordPayload(reply: Message, title: string): { ok: true; value: unknown } | { ok: false; errors: string[] } {
  const submit = reply.content.find((b) => b.type === 'tool_use' && b.name === `submit_${title}`);
  if (submit && submit.type === 'tool_use') return { ok: true, value: submit.input };
  const text = reply.content
    .filter((b): b is Anthropic.Messages.TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('')
    .trim();
  if (!text) return { ok: false, errors: [`the reply held no ${title} record`] };
  try {
    return { ok: true, value: JSON.parse(stripFence(text)) };
  } catch (err) {
    return { ok: false, errors: [`the reply is not valid JSON (${(err as Error).message})`] };
  }
}

function stripFence(text: string): string {
  const m = /^```(?:json)?\s*\n([\s\S]*?)\n```$/.exec(text);
  return m ? m[1]! : text;
}

export function formatIssues(error: z.ZodError): string[] {
  const lines = error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(record)'}: ${i.message}`);
  return lines.length > 20 ? [...lines.slice(0, 20), `… and ${lines.length - 20} more`] : lines;
}

export function recordTitle(record: z.ZodType): string {
  const title = record.meta()?.title;
  if (!title) throw new Error('record schema has no title');
  return title;
}

const schemas = new WeakMap<z.ZodType, Record<string, unknown>>();
function jsonSchemaOf(record: z.ZodType): Record<string, unknown> {
  let schema = schemas.get(record);
  if (!schema) {
    schema = zodOutputFormat(record).schema;
    schemas.set(record, schema);
  }
  return schema;
}

function submitTool(record: z.ZodType): Anthropic.Messages.Tool {
  const title = recordTitle(record);
  return {
    name: `submit_${title}`,
    description: `Submit the ${title} record.`,
    input_schema: jsonSchemaOf(record) as Anthropic.Messages.Tool.InputSchema,
  };
}
