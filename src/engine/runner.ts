/**
 * One sub-agent call, start to finish: send the request, serve read-only tool calls, take the record
 * from the reply, validate it (schema, then the caller's semantic checks), and on rejection run up to
 * two repair turns that quote the errors. A unit that still fails is reported with its reason — a
 * malformed reply is never used, and never silently dropped.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { FatalApiError, type Message, type MessageParams, type ModelClient } from './client';
import type { Priority } from '../model/semaphore';
import { sleep, untilAborted } from './backoff';
import type { ResultCache } from './resultCache';
import { jsonSchemaOf, UnitCache } from './unitCache';
import type { FileAccess } from '../model/access';
import type { Effort } from '../model/models';
import { runTool, TOOL_DEFINITIONS } from './tools';
import { PromptTooLong, type WindowGuard } from './window';
import type { UnitOutcome, UnitSpec } from './unit';

type ContentBlock = Anthropic.Messages.ContentBlockParam;
type MessageTurn = Anthropic.Messages.MessageParam;
type SystemBlock = Anthropic.Messages.TextBlockParam;

export const MAX_REPAIRS = 2;
/** Turns that may call read tools; after them one last turn without tools asks for the record. */
export const MAX_TOOL_TURNS = 8;
/** Tool calls served in one turn: more are answered with an error, so one reply cannot fan out without end. */
const MAX_CALLS_PER_TURN = 8;
/** Requests one unit may send, whatever happens: the first, the tool turns, the last turn, the repairs. */
export const MAX_UNIT_CALLS = 1 + MAX_TOOL_TURNS + 1 + MAX_REPAIRS;
/** Primes go first: calls are waiting on them. */
const PRIME_PRIORITY: Priority = { rank: Number.MAX_SAFE_INTEGER, order: 0 };
/** Where no count is known: how long the first call on a prefix waits for another to share a prime with. */
const PRIME_WINDOW_MS = 25;
/** What a prime asks after the shared prefix: nothing that matters, its one output token is thrown away. */
const PRIME_TAIL: ContentBlock = { type: 'text', text: 'Cache warm-up: reply with nothing.' };

export class SubAgentRunner {
  /** Off where the provider has no structured outputs, or once it refuses them: records come through submit tools. */
  private structured: boolean;
  /** Off where the provider cannot force a tool, or once it refuses to: the instructions name the submit tool. */
  private forced: boolean;
  repairs = 0;
  private readonly effort: Effort | undefined;
  /** Keys and stored answers: the same code a forecast of the run uses (see UnitCache). */
  readonly cache: UnitCache;
  private readonly primes = new Map<string, { callers: number; done: Promise<void> }>();

  constructor(
    private readonly client: ModelClient,
    private readonly access: FileAccess,
    /** `prompts`: the version of the prompts the units are asked with, part of their cache keys (see UnitCache). */
    opts: { prompts: string; effort?: Effort; cache?: ResultCache; refresh?: boolean },
  ) {
    this.effort = opts.effort;
    this.cache = new UnitCache(opts.prompts, opts.cache, opts.effort, opts.refresh);
    this.structured = client.capabilities.structuredOutputs;
    this.forced = client.capabilities.forcedToolChoice;
  }

  /** See ModelClient.capacity. */
  get capacity(): number {
    return this.client.capacity;
  }

  /** See ModelClient.firstSent. */
  get firstSent(): Promise<void> {
    return this.client.firstSent;
  }

  get cacheHits(): number {
    return this.cache.hits;
  }

  /**
   * A unit answered before (same model, prompt, schema and input) comes from the result cache; a new one is
   * stored. Counted by the client from its first step: a batch round waits until it has sent its request or ended.
   */
  run<T>(spec: UnitSpec<T>): Promise<UnitOutcome<T>> {
    return this.client.count(() => this.runCounted(spec));
  }

  /** Work that runs units one after another (a file's steps), counted between them as the units are (ModelClient.count). */
  chain<T>(work: () => Promise<T>): Promise<T> {
    return this.client.count(work);
  }

  private async runCounted<T>(spec: UnitSpec<T>): Promise<UnitOutcome<T>> {
    const key = this.cache.keyOf(spec);
    const stored = await this.cache.lookup(spec, key);
    if (stored !== undefined) {
      // Answered here: one call fewer on the prefix it shares.
      void spec.primeFirst?.sharer?.looked(false);
      return stored;
    }
    if (spec.primeFirst)
      await this.primeOnce(spec.primeFirst, {
        ...spec,
        content: [...spec.content.slice(0, spec.primeFirst.blocks), PRIME_TAIL],
      });
    // What names the unit to the transport (a batch request's custom_id): its key, or one over its whole turn
    // when it is cached at a finer grain.
    const outcome = await this.converse(spec, key ?? this.cache.keyFor(spec, { content: spec.content }));
    if (!outcome.ok && outcome.tooLong) {
      const next = await spec.smaller?.();
      if (next) return this.run(next);
    }
    // A salvaged answer, or the model's unusable one, is kept too: unchanged input is not paid for twice.
    if (key) await this.cache.keep(key, outcome);
    return outcome;
  }

  /** See RoomCheck: what the unit's first request leaves in its model's window. */
  readonly room: RoomCheck = (spec) => roomCheck(this.client.window, this.effort, () => this.structured)(spec);

  /** See FitCheck: whether the unit's first request fits its model's window with `headroom` to spare. */
  readonly fits: FitCheck = (spec, headroom = 0) =>
    this.client.window.fits(firstRequest(spec, this.effort, this.structured), headroom);

  /**
   * One prime per `key` for the runner's life, sent first if two or more calls on the prefix go to the model,
   * and every caller waits for it; else the lone caller goes on unprimed (a prime then would only add a call).
   * The caller's count decides (Sharer); without one, a short window: another caller within it shares.
   */
  private primeOnce<T>({ key, sharer }: NonNullable<UnitSpec<T>['primeFirst']>, spec: UnitSpec<T>): Promise<void> {
    // Whether a prime pays is the transport's to say (ModelClient.primes).
    if (!this.client.primes) return Promise.resolve();
    const gate = this.primes.get(key);
    if (gate) {
      void sharer?.looked(true);
      gate.callers++;
      return gate.done;
    }
    const opened = { callers: 1, done: Promise.resolve() };
    const shared = sharer
      ? untilAborted(sharer.looked(true), this.client.signal)
      : sleep(PRIME_WINDOW_MS, this.client.signal).then(() => opened.callers > 1);
    opened.done = shared.then((go) => (go ? this.sendPrime(spec) : undefined));
    this.primes.set(key, opened);
    return opened.done;
  }

  /**
   * Sends the unit's request cut to one output token, only so its cached prefix gets written; the reply is
   * not used. Best effort: a failure just means the calls that follow write the prefix themselves.
   */
  private async sendPrime<T>(spec: UnitSpec<T>): Promise<void> {
    try {
      await this.client.create(
        this.params({ ...spec, maxTokens: 1 }, [{ role: 'user', content: spec.content }], this.structured, this.forced),
        { label: `${spec.label} (cache prime)`, step: spec.step },
        PRIME_PRIORITY,
      );
    } catch (err) {
      if (err instanceof FatalApiError || this.client.signal.aborted) throw err;
    }
  }

  private async converse<T>(spec: UnitSpec<T>, key?: string): Promise<UnitOutcome<T>> {
    const turns: MessageTurn[] = [{ role: 'user', content: spec.content }];
    let repairs = 0;
    let toolTurns = 0;
    /** The last reply that parsed but failed the unit's check: what a salvage keeps if the repairs cannot go on. */
    let rejected: T | undefined;
    for (let calls = 0; ; calls++) {
      if (calls >= MAX_UNIT_CALLS)
        return {
          ok: false,
          reason: `no acceptable record after ${MAX_UNIT_CALLS} model calls (the per-unit limit)`,
          answered: true,
        };
      let reply: Message;
      try {
        reply = await this.send(spec, turns, toolTurns >= MAX_TOOL_TURNS, key);
      } catch (err) {
        return this.sendFailed(err, spec, rejected, repairs);
      }
      // A refusal is the model's answer, not a malformed record: repairing it only pays for the same refusal.
      if (reply.stop_reason === 'refusal') return { ok: false, reason: 'the model refused to answer', answered: true };
      turns.push({ role: 'assistant', content: reply.content as ContentBlock[] });

      const readCalls = toolCalls(reply).filter((b) => !isSubmit(b));
      if (readCalls.length > 0) {
        // A record submitted beside read calls is taken if it passes; else the next turn answers every call.
        const early = toolCalls(reply).some(isSubmit) ? this.accept(spec, reply) : undefined;
        if (early?.ok) return { ok: true, value: early.value, repairs };
        if (toolTurns >= MAX_TOOL_TURNS)
          return {
            ok: false,
            reason: `tool budget exhausted: the model still called tools after ${MAX_TOOL_TURNS} tool turns and a last turn without tools`,
            answered: true,
          };
        toolTurns++;
        turns.push({ role: 'user', content: await this.serveTools(reply, toolTurns >= MAX_TOOL_TURNS) });
        continue;
      }

      const errors = this.accept(spec, reply);
      if (errors.ok) return { ok: true, value: errors.value, repairs };
      rejected = errors.parsed ?? rejected;
      if (repairs >= MAX_REPAIRS)
        return (
          salvaged(spec, errors.parsed, repairs) ?? {
            ok: false,
            reason: `reply rejected after ${MAX_REPAIRS} repair turns: ${errors.errors.join('; ')}`,
            answered: true,
          }
        );
      repairs++;
      this.repairs++;
      turns.push({ role: 'user', content: this.repairTurn(reply, errors.errors) });
    }
  }

  /** A call that failed for good: a fatal error ends the run; the unit fails, or keeps what it can of its last answer. */
  private sendFailed<T>(err: unknown, spec: UnitSpec<T>, rejected: T | undefined, repairs: number): UnitOutcome<T> {
    if (err instanceof FatalApiError || this.client.signal.aborted) throw err;
    // A later turn outgrew the window: keep what is sound of the last answer, never resend it as it is.
    if (err instanceof PromptTooLong)
      return salvaged(spec, rejected, repairs) ?? { ok: false, reason: err.message, tooLong: true };
    return { ok: false, reason: `model call failed: ${this.client.describe(err)}` };
  }

  /** `toolsOff`: the tool budget is spent; the tools stay declared (earlier turns use them) but may not be called. */
  private async send<T>(spec: UnitSpec<T>, messages: MessageTurn[], toolsOff = false, key?: string): Promise<Message> {
    const tag = {
      label: spec.label,
      step: spec.step,
      ...(spec.file ? { file: spec.file } : {}),
      ...(key ? { key } : {}),
    };
    // Decided per request, and again after a refusal: calls already in flight when the first one arrives switch over too.
    for (;;) {
      const { structured, forced } = this;
      const params = {
        ...this.params(spec, messages, structured, forced),
        ...(toolsOff && structured && forced && spec.tools ? { tool_choice: { type: 'none' as const } } : {}),
      };
      if (spec.minTokens !== undefined) params.max_tokens = this.client.window.outputFor(params, spec.minTokens);
      try {
        return await this.client.create(params, tag, spec.priority);
      } catch (err) {
        if (structured && this.client.refusesStructuredOutput(err)) this.structured = false;
        else if (forced && this.client.refusesToolChoice(err)) this.forced = false;
        else throw err;
      }
    }
  }

  private params<T>(spec: UnitSpec<T>, messages: MessageTurn[], structured: boolean, forced: boolean): MessageParams {
    return requestParams(spec, messages, { structured, effort: this.effort, forced });
  }

  /** The record, or the errors against it; `parsed` is the schema-valid record that failed only the semantic check. */
  private accept<T>(
    spec: UnitSpec<T>,
    reply: Message,
  ): { ok: true; value: T } | { ok: false; errors: string[]; parsed?: T } {
    if (reply.stop_reason === 'max_tokens')
      return {
        ok: false,
        errors: [
          'the reply was cut off at max_tokens; answer with a shorter record (one sentence per action and rationale)',
        ],
      };
    const raw = recordPayload(reply, recordTitle(spec.record));
    if (!raw.ok) return raw;
    const parsed = spec.record.safeParse(raw.value);
    if (!parsed.success) return { ok: false, errors: formatIssues(parsed.error) };
    const semantic = spec.check?.(parsed.data) ?? [];
    return semantic.length ? { ok: false, errors: semantic, parsed: parsed.data } : { ok: true, value: parsed.data };
  }

  /**
   * Answers every tool call of `reply`, as the API requires of the next turn: the read calls served (at most
   * MAX_CALLS_PER_TURN), a submit call made beside them sent back unused. On the last tool turn, says that
   * no more will be served.
   */
  private async serveTools(reply: Message, last: boolean): Promise<ContentBlock[]> {
    let reads = 0;
    const results = await Promise.all(
      toolCalls(reply).map(async (call): Promise<ContentBlock> => {
        const outcome = isSubmit(call)
          ? { content: SUBMIT_TOO_EARLY, is_error: true }
          : reads++ < MAX_CALLS_PER_TURN
            ? await runTool(call.name, call.input, this.access, this.client.signal)
            : { content: `not run: at most ${MAX_CALLS_PER_TURN} tool calls are served per turn`, is_error: true };
        return { type: 'tool_result', tool_use_id: call.id, content: outcome.content, is_error: outcome.is_error };
      }),
    );
    if (!last) return results;
    return [
      ...results,
      {
        type: 'text',
        text: 'That was the last tool turn: no more tool calls will be served. Answer now with the record.',
      },
    ];
  }

  private repairTurn(reply: Message, errors: string[]): ContentBlock[] {
    const text =
      'Your previous reply was rejected and has not been used:\n' +
      errors.map((e) => `- ${e}`).join('\n') +
      '\nAnswer again with the complete corrected record (every field), and nothing else.';
    // Every submit call of the reply is answered (the API refuses a tool_use left without its tool_result).
    const submits = toolCalls(reply).filter(isSubmit);
    return submits.length
      ? submits.map((call) => ({ type: 'tool_result', tool_use_id: call.id, content: text, is_error: true }))
      : [{ type: 'text', text }];
  }
}

/** What a submit call made beside read calls is answered with, when its record did not pass. */
const SUBMIT_TOO_EARLY =
  'Not used: this record came with read calls and did not pass. Read what you need, then submit the complete record again.';

function toolCalls(reply: Message): Anthropic.Messages.ToolUseBlock[] {
  return reply.content.filter((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use');
}

function isSubmit(call: Anthropic.Messages.ToolUseBlock): boolean {
  return call.name.startsWith('submit_');
}

/** What of the record is sound after its repairs ran out, as the unit's answer; undefined where nothing can be kept. */
function salvaged<T>(spec: UnitSpec<T>, parsed: T | undefined, repairs: number): UnitOutcome<T> | undefined {
  const saved = parsed !== undefined && spec.salvage ? spec.salvage(parsed) : undefined;
  return saved && { ok: true, value: saved.value, repairs, leftOut: saved.leftOut };
}

/**
 * How a unit's request is made: `structured`, an output schema rather than a submit tool; `forced` (the
 * default), the submit tool forced by tool_choice, else offered and named in the instructions.
 */
interface RequestShape {
  structured: boolean;
  effort?: Effort | undefined;
  forced?: boolean;
}

/** The request a unit sends with `messages` so far. */
function requestParams<T>(
  spec: UnitSpec<T>,
  messages: MessageTurn[],
  { structured, effort: chosen, forced = true }: RequestShape,
): MessageParams {
  const effortLevel = spec.effort ?? chosen;
  const system: SystemBlock[] =
    typeof spec.system === 'string'
      ? [{ type: 'text', text: spec.system, cache_control: { type: 'ephemeral' } }]
      : spec.system;
  const base = {
    model: spec.model,
    max_tokens: spec.maxTokens,
    ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
    system,
    messages: withTurnBreakpoint(messages),
  };
  const effort = effortLevel ? { effort: effortLevel } : {};
  if (spec.recordTools) {
    return {
      ...base,
      tools: [...(spec.tools ? TOOL_DEFINITIONS : []), ...spec.recordTools.map((r) => submitTool(r, structured))],
      ...(effortLevel ? { output_config: effort } : {}),
    };
  }
  if (structured) {
    return {
      ...base,
      ...(spec.tools ? { tools: TOOL_DEFINITIONS } : {}),
      output_config: { format: { type: 'json_schema', schema: jsonSchemaOf(spec.record) }, ...effort },
    };
  }
  const submit = submitTool(spec.record);
  const config = effortLevel ? { output_config: effort } : {};
  if (forced) return { ...base, tools: [submit], tool_choice: { type: 'tool', name: submit.name }, ...config };
  // Nothing can force the tool: the instructions name it, and a reply without it is repaired like any other.
  const ask: SystemBlock = {
    type: 'text',
    text: `Answer only by calling the ${submit.name} tool with the complete record.`,
  };
  return { ...base, system: [...system, ask], tools: [submit], ...config };
}

/** Whether a unit's first request fits its model's window, at its least output budget, with `headroom` tokens to spare. */
export type FitCheck = <T>(spec: UnitSpec<T>, headroom?: number) => boolean;
/** The tokens a unit's first request, at its least output budget, leaves in its model's window (WindowGuard.room). */
export type RoomCheck = <T>(spec: UnitSpec<T>) => number;

/** A RoomCheck on `guard`, for callers that plan units without a runner (the forecast, the estimate). */
export function roomCheck(guard: WindowGuard, effort?: Effort, structured: () => boolean = () => true): RoomCheck {
  return (spec) => guard.room(firstRequest(spec, effort, structured()));
}

/** A FitCheck on `guard` (see roomCheck). */
export function fitCheck(guard: WindowGuard, effort?: Effort): FitCheck {
  return (spec, headroom = 0) => guard.fits(firstRequest(spec, effort, true), headroom);
}

/** A unit's first request at its least output budget: what RoomCheck and FitCheck measure. */
function firstRequest<T>(spec: UnitSpec<T>, effort: Effort | undefined, structured: boolean): MessageParams {
  return requestParams(
    { ...spec, maxTokens: spec.minTokens ?? spec.maxTokens },
    [{ role: 'user', content: spec.content }],
    { structured, effort },
  );
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

/** `strict`: the API holds the tool's input to its schema (the cache-first layout's only output constraint, where the provider has it). */
function submitTool(record: z.ZodType, strict = false): Anthropic.Messages.Tool {
  const title = recordTitle(record);
  return {
    name: `submit_${title}`,
    description: `Submit the ${title} record.`,
    input_schema: jsonSchemaOf(record) as Anthropic.Messages.Tool.InputSchema,
    ...(strict ? { strict: true } : {}),
  };
}

/**
 * A tool-result or repair turn ends at a cache breakpoint, so the turn after it reads the whole
 * conversation so far (the API finds the previous turn's breakpoint by looking back) instead of re-sending
 * it uncached. Only the newest turn is marked: with the layout's own breakpoints that stays within four.
 */
function withTurnBreakpoint(turns: MessageTurn[]): MessageTurn[] {
  if (turns.length < 3) return turns;
  const last = turns.at(-1)!;
  const blocks = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  const marked = blocks.map((b, i) =>
    i === blocks.length - 1 ? ({ ...b, cache_control: { type: 'ephemeral' } } as ContentBlock) : b,
  );
  return [...turns.slice(0, -1), { ...last, content: marked } as MessageTurn];
}
