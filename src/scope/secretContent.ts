/**
 * Secrets found by content: a file whose text holds a private key, a cloud or VCS token, or credentials in
 * a URL is never sent, whatever its name. Two detectors: secretlint's recommended preset (the scanner `vsce`
 * itself runs before publishing an extension: maintained rules with low false positives, pure JS), then
 * Skeptic's own rules (secretRules.ts) for what the preset lets through: any private-key block with a body,
 * credential assignments, and vendor formats the preset does not know.
 */
import { createHash } from 'node:crypto';
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { mayHoldSecret, PRESET_ANCHORS } from './secretAnchors';
import { findOwnSecret, OWN_RULES_VERSION, SECRET_RULES } from './secretRules';

export interface SecretHit {
  /** 1-based line of the first secret found. */
  line: number;
  /** What kind of secret, e.g. "GitHub token" (the rule's message id), never the secret itself. */
  kind: string;
}

export const PRESET_CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

/** Bump when the scan's own logic changes (what is scanned, how a hit is chosen); rules and anchors count by themselves. */
const SCAN_REVISION = 1;

interface RuleLike {
  meta?: { id?: string };
  create?: unknown;
  rules?: RuleLike[];
}
const ruleSource = (r: RuleLike): unknown => [r.meta?.id, String(r.create), (r.rules ?? []).map(ruleSource)];

/**
 * The rules a verdict was reached under: a hash of every configured rule's id and code, the prefilter's anchors
 * and SCAN_REVISION. A stored verdict (scope/facts.ts) counts only under the same version, so a rule added,
 * changed or upgraded rescans every file.
 */
export const SECRET_RULES_VERSION = createHash('sha256')
  .update(
    JSON.stringify({
      scan: SCAN_REVISION,
      rules: PRESET_CONFIG.rules.map((r) => [r.id, ruleSource(r.rule as RuleLike)]),
      anchors: Object.entries(PRESET_ANCHORS).map(([id, res]) => [id, res.map(String)]),
      own: [OWN_RULES_VERSION, SECRET_RULES.map((r) => [r.id, String(r.anchor), String(r.find)])],
    }),
  )
  .digest('hex')
  .slice(0, 16);

/**
 * The name secretlint is told: it must be one that no rule treats specially (package.json, .npmrc, or no name
 * at all, which the npm rule takes for package.json).
 */
export const SCANNED_NAME = 'text';

/** Texts scanned before, by hash: a run reads a file many times (Step 0, the estimate, prompts, tools). */
const judged = new Map<string, Promise<SecretHit | null>>();
const MEMO_LIMIT = 10_000;

/**
 * The first secret in `text`, or null: the preset's, else one of Skeptic's own rules (whose anchors make
 * them cheap on every text). Most texts hold none of the text the preset's rules start from
 * (secretAnchors.ts) and skip its scan; the rest are scanned whole, each on its own, so that a
 * `secretlint-disable` comment in one file can never silence another (nor any of Skeptic's own rules).
 */
export function findSecret(text: string): Promise<SecretHit | null> {
  if (!mayHoldSecret(text)) return Promise.resolve(findOwnSecret(text));
  const key = createHash('sha256').update(text).digest('hex');
  let hit = judged.get(key);
  if (!hit) {
    if (judged.size >= MEMO_LIMIT) judged.clear();
    hit = scan(text).then((found) => found ?? findOwnSecret(text));
    judged.set(key, hit);
    // A scan that failed is tried again next time, not remembered.
    hit.catch(() => judged.delete(key));
  }
  return hit;
}

async function scan(text: string): Promise<SecretHit | null> {
  const result = await lintSource({
    source: { filePath: SCANNED_NAME, content: text, contentType: 'text' },
    options: { config: PRESET_CONFIG, maskSecrets: true },
  });
  let first: SecretHit | null = null;
  for (const m of result.messages) {
    if (m.type === 'message' && (!first || m.loc.start.line < first.line))
      first = { line: m.loc.start.line, kind: m.messageId };
  }
  return first;
}
