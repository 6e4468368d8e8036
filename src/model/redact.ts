/**
 * Credentials never reach a message Skeptic writes (report, JSON, console, events): an endpoint may echo the
 * request's headers into its error text, and that text is quoted in reports. Besides the run's own secrets
 * (passed as `known`), anything shaped like a credential goes: Anthropic keys, bearer and basic tokens, AWS
 * secret keys and session tokens, SigV4 signatures, Bedrock API keys and Google OAuth access tokens.
 */
const PATTERNS: Array<[RegExp, string]> = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  [/\b(x-api-key|api[_-]?key)(["']?\s*[:=]\s*["']?)(?!\[redacted\])[^\s"',;]+/gi, '$1$2[redacted]'],
  [/sk-ant-[A-Za-z0-9_-]+/g, 'sk-ant-[redacted]'],
  // aws_secret_access_key = …, "SecretAccessKey": "…", X-Amz-Security-Token: …, sessionToken=…
  [
    /\b(aws_?secret_?access_?key|secret_?access_?key|aws_?session_?token|session_?token|x-amz-security-token)(["']?\s*[:=]\s*["']?)(?!\[redacted\])[^\s"',;]+/gi,
    '$1$2[redacted]',
  ],
  [/\b(Signature=)[0-9a-f]{64}\b/g, '$1[redacted]'],
  // Bedrock API keys: long-term ones begin ABSK, short-term ones bedrock-api-key-.
  [/\bABSK[A-Za-z0-9+/=]{20,}/g, 'ABSK[redacted]'],
  [/\bbedrock-api-key-[A-Za-z0-9+/=._-]+/g, 'bedrock-api-key-[redacted]'],
  // Google OAuth 2 access tokens.
  [/\bya29\.[A-Za-z0-9._-]+/g, 'ya29.[redacted]'],
];

/** `text` without credentials (see above), nor any of `known`. */
export function redact(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const secret of known) if (secret.length >= 8) out = out.split(secret).join('[redacted]');
  for (const [re, by] of PATTERNS) out = out.replace(re, by);
  return out;
}
