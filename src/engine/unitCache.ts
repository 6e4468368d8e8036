/**
 * The result cache as units see it: a unit's key (its mode's prompt version, model, system, record schema, effort,
 * tools, and what the unit names: its whole user turn, or just the parts it lists) and its stored answer,
 * read back through the record's schema and the unit's own check. A run and the forecast of what a run will
 * ask (staged/forecast.ts) both go through here, so the two cannot disagree on what is cached.
 */
import { createHash } from 'node:crypto';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { z } from 'zod';
import type { Effort } from '../model/models';
import { ResultCache } from './resultCache';
import type { UnitOutcome, UnitSpec } from './unit';

/**
 * What a unit came to when no clean answer could be kept: the sound part of a salvaged answer and what was
 * left out of it, or why the model's answers could not be used. Stored beside the unit's key (never under
 * it, so a reader of answers never mistakes one for a record).
 */
const Settled = z.union([
  z.strictObject({ salvaged: z.unknown(), left_out: z.array(z.string()) }),
  z.strictObject({ failed: z.string() }),
]);

export class UnitCache {
  /** Answers read back (each a unit, or a Step 3 function, that needed no call). */
  hits = 0;

  /**
   * `prompts`: the version of the prompts its units are asked with (each mode's own: staged/promptVersion.ts,
   * lenses/promptVersion.ts). `refresh`: settled units (salvaged, or failed after the model answered) are
   * asked again; clean answers still count.
   */
  constructor(
    private readonly prompts: string,
    private readonly store: ResultCache | undefined,
    private readonly effort: Effort | undefined,
    private readonly refresh = false,
  ) {}

  /** A key over the unit's model, system, record schema, effort and tools, plus `parts`. */
  keyFor<T>(
    spec: Pick<UnitSpec<T>, 'model' | 'system' | 'record' | 'tools' | 'temperature' | 'effort'>,
    parts: object,
  ): string {
    return ResultCache.key({
      // Only when set, so that the keys of units without one stay what they were.
      ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
      prompts: this.prompts,
      model: spec.model,
      // Digests, each made once: the system text and the schema are the same in every key of a step, and copying
      // them into every key's JSON made a quarter of a run's garbage (a key per function, tens of kilobytes each).
      system:
        typeof spec.system === 'string'
          ? digestOf(spec.system)
          : spec.system.map((block) => ({ ...block, text: digestOf(block.text) })),
      schema: schemaDigest(spec.record),
      effort: spec.effort ?? this.effort ?? null,
      tools: spec.tools,
      ...parts,
    });
  }

  /** A key for something kept beside the units (not a model's answer to one request). */
  namedKey(parts: object): string {
    return ResultCache.key(parts);
  }

  /** The unit's own key, or undefined when it is not cached at this grain (`cacheKey: false`). */
  keyOf<T>(spec: UnitSpec<T>): string | undefined {
    if (spec.cacheKey === false) return undefined;
    return this.keyFor(spec, typeof spec.cacheKey === 'object' ? { parts: spec.cacheKey } : { content: spec.content });
  }

  /** The unit's stored answer if it still parses and passes the unit's check: what a run takes instead of a call. */
  async answer<T>(spec: UnitSpec<T>, key = this.keyOf(spec)): Promise<T | undefined> {
    const stored = key === undefined ? undefined : await this.recall(key, spec.record);
    return stored !== undefined && (spec.check?.(stored) ?? []).length === 0 ? stored : undefined;
  }

  /**
   * What a run takes instead of calls: the unit's clean answer, else (unless refreshing) how it settled last
   * time with the same input — the salvaged answer with its notes, or the failure with its reason.
   */
  async lookup<T>(spec: UnitSpec<T>, key = this.keyOf(spec)): Promise<UnitOutcome<T> | undefined> {
    const stored = await this.answer(spec, key);
    if (stored !== undefined) return { ok: true, value: stored, repairs: 0, cached: true };
    if (!this.store || this.refresh || key === undefined) return undefined;
    const settled = Settled.safeParse(await this.store.get(settledKey(key)));
    if (!settled.success) return undefined;
    if ('failed' in settled.data) {
      this.hits++;
      return {
        ok: false,
        reason: `${settled.data.failed} (as for the same input before; --refresh asks again)`,
        answered: true,
        cached: true,
      };
    }
    const value = spec.record.safeParse(settled.data.salvaged);
    if (!value.success) return undefined;
    this.hits++;
    return { ok: true, value: value.data, repairs: 0, leftOut: settled.data.left_out, cached: true };
  }

  /** Keeps what a unit came to: a clean answer under its key, a salvaged answer or an answered failure beside it. */
  async keep<T>(key: string, outcome: UnitOutcome<T>): Promise<void> {
    if (outcome.ok && !outcome.leftOut) await this.remember(key, outcome.value);
    else if (outcome.ok) await this.remember(settledKey(key), { salvaged: outcome.value, left_out: outcome.leftOut });
    else if (outcome.answered) await this.remember(settledKey(key), { failed: outcome.reason });
  }

  /** The record under `key` if it still parses as `record` (counted as a hit); else undefined. */
  async recall<T>(key: string, record: z.ZodType<T>): Promise<T | undefined> {
    const value = await this.store?.get(key);
    // A miss is no record (each is an object): not parsed, which would build an error per key missed.
    if (value === undefined) return undefined;
    const stored = record.safeParse(value);
    if (!stored.success) return undefined;
    this.hits++;
    return stored.data;
  }

  /** Whether anything is stored for the unit (a prime for it would be wasted). */
  async holds<T>(spec: UnitSpec<T>): Promise<boolean> {
    const key = this.keyOf(spec);
    return this.store !== undefined && key !== undefined && (await this.store.get(key)) !== undefined;
  }

  /** Whether anything at all may be stored (ResultCache.holdsAny); without a store, nothing is. */
  async holdsAny(): Promise<boolean> {
    return (await this.store?.holdsAny()) ?? false;
  }

  /** For each key, whether anything may be stored under it (ResultCache.mayHold); without a store, nothing is. */
  async mayHold(keys: string[]): Promise<boolean[]> {
    return this.store ? this.store.mayHold(keys) : keys.map(() => false);
  }

  /** Whether anything is stored under `key` (not counted as a hit). */
  async has(key: string): Promise<boolean> {
    return this.store !== undefined && (await this.store.get(key)) !== undefined;
  }

  async remember(key: string, value: unknown): Promise<void> {
    await this.store?.put(key, value);
  }
}

const settledKey = (key: string) => ResultCache.key({ settled: key });

/**
 * A system text's digest. A run has a handful of them, so they are kept; past a few dozen (a long-lived worker or
 * MCP server seeing many configurations) the memo starts over rather than grow.
 */
const digests = new Map<string, string>();
const MAX_DIGESTS = 64;
function digestOf(text: string): string {
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = createHash('sha256').update(text).digest('hex');
    if (digests.size >= MAX_DIGESTS) digests.clear();
    digests.set(text, digest);
  }
  return digest;
}

const schemaDigests = new WeakMap<z.ZodType, string>();
function schemaDigest(record: z.ZodType): string {
  let digest = schemaDigests.get(record);
  if (digest === undefined) {
    digest = digestOf(JSON.stringify(jsonSchemaOf(record)));
    schemaDigests.set(record, digest);
  }
  return digest;
}

const schemas = new WeakMap<z.ZodType, Record<string, unknown>>();
/** The JSON Schema a request sends for a record (a submit tool's input, or the output format): compact. */
export function jsonSchemaOf(record: z.ZodType): Record<string, unknown> {
  let schema = schemas.get(record);
  if (!schema) {
    schema = compact(zodOutputFormat(record).schema);
    schemas.set(record, schema);
  }
  return schema;
}

/** `z.number().int()`'s implied bound, which the SDK spells out in every integer's description. */
const SAFE_MAX = `, maximum: ${Number.MAX_SAFE_INTEGER}`;

/**
 * The SDK's schema with its `$defs` put back in place (it names every property, even a lone string, as a
 * definition) and without the integer bound no record needs stated: the same constraints in about half the
 * characters, which every request about a file carries in its tool list. A definition that refers to itself
 * stays a reference (none of ours does).
 */
function compact(root: Record<string, unknown>): Record<string, unknown> {
  const defs = (root.$defs ?? {}) as Record<string, unknown>;
  let kept = false;
  const walk = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, seen));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    const name = typeof ref === 'string' && ref.startsWith('#/$defs/') ? ref.slice('#/$defs/'.length) : undefined;
    if (name !== undefined && name in defs && !seen.includes(name)) return walk(defs[name], [...seen, name]);
    if (name !== undefined) kept = true;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$defs') continue;
      if (key === 'description' && typeof value === 'string') {
        const text = value.replace(SAFE_MAX, '');
        if (text !== '{}') out[key] = text;
      } else out[key] = walk(value, seen);
    }
    return out;
  };
  const body = walk(root, []) as Record<string, unknown>;
  return kept ? { ...body, $defs: root.$defs } : body;
}
