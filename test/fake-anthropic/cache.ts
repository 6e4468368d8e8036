/**
 * Prompt-cache accounting as strict as the real API, for measuring the engine's cache layout: the prompt
 * is a prefix of parts (tools, output schema, system blocks, message blocks); every block with
 * `cache_control` is a breakpoint (at most 4 per request) whose prefix gets written; a request reads the
 * longest readable prefix ending at a breakpoint or up to 20 blocks before one (the API's lookback).
 * A written prefix becomes readable only once its writer's response has begun (`commit`), so calls that
 * start together all pay to write the same prefix; prefixes under the minimum are never cached.
 */
import { createHash } from 'node:crypto';
import { isObject, type MessagesBody } from './request';

export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export const MAX_BREAKPOINTS = 4;
/** How many blocks before a breakpoint the API looks for a cached prefix. */
const LOOKBACK_BLOCKS = 20;

export class CacheError extends Error {}

export interface Accounted {
  usage: CacheUsage;
  /** The prefixes this request writes; readable by others once `commit`ted. */
  writes: string[];
  /** Of `cache_creation_input_tokens`, those written under a `ttl: "1h"` breakpoint (the rest are 5-minute). */
  writtenHour: number;
}

/** The API's two cache lifetimes; a breakpoint without `ttl` is the 5-minute one. */
const TTLS = ['5m', '1h'] as const;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A text's tokens: four characters a token, or `bytesPerToken` UTF-8 bytes a token (a denser tokenizer). */
export const tokenCounter =
  (bytesPerToken?: number) =>
  (text: string): number =>
    bytesPerToken === undefined ? estimateTokens(text) : Math.ceil(Buffer.byteLength(text) / bytesPerToken);

export class PromptCache {
  private readonly readable = new Set<string>();

  constructor(
    private readonly minTokens: number,
    private readonly count: (text: string) => number = estimateTokens,
  ) {}

  /**
   * Throws CacheError for a request the API would refuse: more than 4 breakpoints, a `ttl` other than "5m" or
   * "1h", or a 1-hour breakpoint after a 5-minute one (longer lifetimes must come first).
   */
  account(body: MessagesBody): Accounted {
    const parts = promptParts(body);
    const marked = parts.filter((p) => isObject(p) && p.cache_control).length;
    if (marked > MAX_BREAKPOINTS)
      throw new CacheError(
        `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${marked}.`,
      );
    const ttls = parts.flatMap((p) => (isObject(p) && p.cache_control ? [ttlOf(p.cache_control)] : []));
    const shortFirst = ttls.indexOf('5m');
    if (shortFirst >= 0 && ttls.lastIndexOf('1h') > shortFirst)
      throw new CacheError(
        'cache_control: a breakpoint with ttl "1h" must not come after one with ttl "5m" (longer lifetimes first)',
      );
    const hash = createHash('sha256').update(canonical(body.model));
    const prefixes: { key: string; tokens: number; breakpoint: boolean; ttl: (typeof TTLS)[number] }[] = [];
    let total = 0;
    for (const part of parts) {
      const serialized = canonical(withoutCacheControl(part));
      hash.update(`\n${serialized}`);
      total += this.count(serialized);
      prefixes.push({
        key: hash.copy().digest('hex'),
        tokens: total,
        breakpoint: isObject(part) && Boolean(part.cache_control),
        ttl: isObject(part) && part.cache_control ? ttlOf(part.cache_control) : '5m',
      });
    }
    const cacheable = (i: number) => prefixes[i]!.tokens >= this.minTokens;
    const breakpoints = prefixes.flatMap((p, i) => (p.breakpoint && cacheable(i) ? [i] : []));
    let read = 0;
    for (const bp of breakpoints) {
      for (let i = bp; i >= 0 && i > bp - LOOKBACK_BLOCKS; i--) {
        if (cacheable(i) && this.readable.has(prefixes[i]!.key)) {
          read = Math.max(read, prefixes[i]!.tokens);
          break;
        }
      }
    }
    const last = breakpoints.at(-1);
    const written = last === undefined ? 0 : Math.max(0, prefixes[last]!.tokens - read);
    const writes = written > 0 ? breakpoints.map((i) => prefixes[i]!.key).filter((k) => !this.readable.has(k)) : [];
    // Each breakpoint's lifetime covers the tokens written between the previous breakpoint and it.
    let writtenHour = 0;
    let from = read;
    for (const bp of breakpoints) {
      const upTo = prefixes[bp]!.tokens;
      if (upTo > from && prefixes[bp]!.ttl === '1h') writtenHour += upTo - from;
      from = Math.max(from, upTo);
    }
    return {
      writtenHour: written > 0 ? writtenHour : 0,
      usage: {
        input_tokens: total - read - written,
        cache_creation_input_tokens: written,
        cache_read_input_tokens: read,
      },
      writes,
    };
  }

  /** The writer's response has begun: its prefixes are readable from now on. */
  commit(writes: string[]): void {
    for (const key of writes) this.readable.add(key);
  }

  clear(): void {
    this.readable.clear();
  }
}

/** A breakpoint's lifetime; throws CacheError for one the API does not offer. */
function ttlOf(control: unknown): (typeof TTLS)[number] {
  const ttl = isObject(control) ? control.ttl : undefined;
  if (ttl === undefined) return '5m';
  if (!TTLS.includes(ttl as (typeof TTLS)[number]))
    throw new CacheError(`cache_control.ttl: Input should be '5m' or '1h', got ${JSON.stringify(ttl)}`);
  return ttl as (typeof TTLS)[number];
}

/**
 * The prompt in cache order. The output schema counts as part of the prefix (conservatively: changing
 * it invalidates everything after it), and message blocks carry their role so turns don't collide.
 */
function promptParts(body: MessagesBody): unknown[] {
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  const format = body.output_config?.format;
  return [
    ...(body.tools ?? []),
    ...(format ? [{ output_format: format }] : []),
    ...system,
    ...body.messages.flatMap((m) =>
      typeof m.content === 'string'
        ? [{ role: m.role, type: 'text', text: m.content }]
        : m.content.map((b) => ({ role: m.role, ...b })),
    ),
  ];
}

/** The marker says where to cache, not what: moving it must not change the prefix's identity. */
function withoutCacheControl(part: unknown): unknown {
  return isObject(part) ? Object.fromEntries(Object.entries(part).filter(([k]) => k !== 'cache_control')) : part;
}

/** JSON with sorted keys, so key order in the request never changes a prefix's hash. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}
