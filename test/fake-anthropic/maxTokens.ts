/**
 * The output limit, as the API applies it: generation stops at the request's `max_tokens` and the message comes
 * back with `stop_reason: "max_tokens"`, its content as far as it got. Output is counted the way the fake counts
 * input (cache.ts, four characters a token). A text answer (a structured output's JSON) is cut mid-text, so no
 * longer parses; a tool call's input is what a partial-JSON parse of its cut arguments gives: the fields written
 * in full, and the one being written as far as it got (a string cut, an array's elements that were begun).
 */
import { estimateTokens } from './cache';
import { isObject } from './request';
import type { ContentBlock, Outcome } from './reply';

type Message = Extract<Outcome, { kind: 'message' }>;

/** The tokens a message's content takes to generate. */
export function outputTokens(content: ContentBlock[]): number {
  return content.reduce((n, b) => n + estimateTokens(b.type === 'text' ? b.text : JSON.stringify(b.input)), 0);
}

/** The message as the API sends it under `maxTokens`: whole when it fits, else cut there. */
export function cutAtMaxTokens(message: Message, maxTokens: number): Message {
  if (outputTokens(message.content) <= maxTokens) return message;
  let chars = maxTokens * 4;
  const content: ContentBlock[] = [];
  for (const block of message.content) {
    if (chars <= 0) break;
    if (block.type === 'text') {
      content.push({ ...block, text: block.text.slice(0, chars) });
      chars -= block.text.length;
    } else {
      content.push({ ...block, input: cutValue(block.input, chars).value ?? {} });
      chars -= JSON.stringify(block.input).length;
    }
  }
  return { kind: 'message', content, stopReason: 'max_tokens' };
}

/** What a partial parse recovers of `value` written to `chars` characters of its JSON, and the characters it used. */
function cutValue(value: unknown, chars: number): { value: unknown; used: number } {
  const whole = JSON.stringify(value).length;
  if (whole <= chars) return { value, used: whole };
  if (typeof value === 'string') return { value: value.slice(0, Math.max(0, chars - 1)), used: chars };
  // A number, boolean or null not written in full is not there.
  if (!Array.isArray(value) && !isObject(value)) return { value: undefined, used: chars };
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value);
  let used = 1;
  const kept: [string, unknown][] = [];
  for (const [key, v] of entries) {
    const head = Array.isArray(value) ? 1 : JSON.stringify(key).length + 2;
    if (used + head >= chars) break;
    const cut = cutValue(v, chars - used - head);
    if (cut.value !== undefined) kept.push([key, cut.value]);
    used += head + cut.used;
    if (used >= chars) break;
  }
  return {
    value: Array.isArray(value) ? kept.map(([, v]) => v) : Object.fromEntries(kept),
    used: Math.min(used, chars),
  };
}
