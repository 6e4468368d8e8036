/**
 * Prompt-cache accounting, close enough to the real API for tests of the engine's cache layout: the
 * prompt is a prefix of parts (tools, output schema, system blocks, message blocks); every block with
 * `cache_control` is a breakpoint whose prefix gets cached; a later request reads the longest cached one.
 */
import { createHash } from 'node:crypto';
import { isObject, type MessagesBody } from './request';

export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export class PromptCache {
  private readonly cached = new Set<string>();

  constructor(private readonly minTokens: number) {}

  account(body: MessagesBody): CacheUsage {
    const hash = createHash('sha256').update(canonical(body.model));
    const breakpoints: { key: string; tokens: number }[] = [];
    let total = 0;
    for (const part of promptParts(body)) {
      const serialized = canonical(withoutCacheControl(part));
      hash.update(`\n${serialized}`);
      total += estimateTokens(serialized);
      if (isObject(part) && part.cache_control) breakpoints.push({ key: hash.copy().digest('hex'), tokens: total });
    }
    // Prefixes under the minimum are never cached; the rest are in ascending order.
    const cacheable = breakpoints.filter((b) => b.tokens >= this.minTokens);
    const read = cacheable.filter((b) => this.cached.has(b.key)).at(-1)?.tokens ?? 0;
    const written = Math.max(0, (cacheable.at(-1)?.tokens ?? 0) - read);
    for (const b of cacheable) this.cached.add(b.key);
    return { input_tokens: total - read - written, cache_creation_input_tokens: written, cache_read_input_tokens: read };
  }

  clear(): void {
    this.cached.clear();
  }
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
      typeof m.content === 'string' ? [{ role: m.role, type: 'text', text: m.content }] : m.content.map((b) => ({ role: m.role, ...b })),
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
    isObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v,
  );
}
