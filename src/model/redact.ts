/**
 * Credentials never reach a message Skeptic writes (report, JSON, console, events): an endpoint may echo the
 * request's headers into its error text, and that text is quoted in reports.
 */
const PATTERNS: Array<[RegExp, string]> = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  [/\b(x-api-key|api[_-]?key)(["']?\s*[:=]\s*["']?)(?!\[redacted\])[^\s"',;]+/gi, '$1$2[redacted]'],
  [/sk-ant-[A-Za-z0-9_-]+/g, 'sk-ant-[redacted]'],
];

/** `text` without Anthropic keys, bearer/basic tokens, key-looking header values, or any of `known`. */
export function redact(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const secret of known) if (secret.length >= 8) out = out.split(secret).join('[redacted]');
  for (const [re, by] of PATTERNS) out = out.replace(re, by);
  return out;
}
