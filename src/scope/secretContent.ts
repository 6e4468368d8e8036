/**
 * Secrets found by content: a file whose text holds a private key, a cloud or VCS token, or credentials in
 * a URL is never sent, whatever its name. The detection is secretlint's recommended preset (the scanner
 * `vsce` itself runs before publishing an extension): maintained rules with low false positives, pure JS.
 */
import { createHash } from 'node:crypto';
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';

export interface SecretHit {
  /** 1-based line of the first secret found. */
  line: number;
  /** What kind of secret, e.g. "GitHub token" (the rule's message id), never the secret itself. */
  kind: string;
}

const CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

/**
 * One secretlint call costs about a millisecond of setup whatever the text's size, which on a large tree
 * would cost more than the scan. Files asked for in the same turn of the event loop are scanned together:
 * their texts joined, each hit mapped back to its file and line. A text judged once is not scanned again.
 */
const judged = new Map<string, Promise<SecretHit | null>>();
const MEMO_LIMIT = 50_000;
const BATCH_CHARS = 4 << 20;
/** The line breaks secretlint counts (its locations come from structured-source). */
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/;

interface Pending {
  text: string;
  settle: (hit: SecretHit | null) => void;
  fail: (err: unknown) => void;
}
let queue: Pending[] = [];

/** The first secret in `text`, or null. */
export function findSecret(text: string): Promise<SecretHit | null> {
  const key = createHash('sha256').update(text).digest('hex');
  let hit = judged.get(key);
  if (!hit) {
    if (judged.size >= MEMO_LIMIT) judged.clear();
    hit = new Promise((settle, fail) => {
      if (queue.length === 0) setImmediate(flush);
      queue.push({ text, settle, fail });
    });
    judged.set(key, hit);
    // A scan that failed is tried again next time, not remembered.
    hit.catch(() => judged.delete(key));
  }
  return hit;
}

function flush(): void {
  const all = queue;
  queue = [];
  for (let start = 0; start < all.length; ) {
    let end = start;
    for (let chars = 0; end < all.length && (end === start || chars + all[end]!.text.length <= BATCH_CHARS); end++) chars += all[end]!.text.length;
    void scanBatch(all.slice(start, end));
    start = end;
  }
}

/** One scan over the batch's texts, each starting on a fresh line; a hit is mapped to its file by line. */
async function scanBatch(batch: Pending[]): Promise<void> {
  const firstLines: number[] = [];
  let line = 1;
  for (const p of batch) {
    firstLines.push(line);
    line += p.text.split(LINE_BREAK).length;
  }
  try {
    const content = batch.map((p) => p.text).join('\n');
    const result = await lintSource({ source: { filePath: 'batch', content, contentType: 'text' }, options: { config: CONFIG, maskSecrets: true } });
    const hits: Array<SecretHit | null> = batch.map(() => null);
    for (const m of result.messages) {
      if (m.type !== 'message') continue;
      const at = m.loc.start.line;
      let i = firstLines.length - 1;
      while (i > 0 && firstLines[i]! > at) i--;
      const hit = { line: at - firstLines[i]! + 1, kind: m.messageId };
      if (!hits[i] || hit.line < hits[i]!.line) hits[i] = hit;
    }
    batch.forEach((p, i) => p.settle(hits[i]!));
  } catch (err) {
    batch.forEach((p) => p.fail(err));
  }
}
