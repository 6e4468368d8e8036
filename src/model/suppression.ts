/**
 * Inline suppressions: a comment `skeptic-ignore A1: why` on a finding's line, or alone on the line just
 * above it, removes that rule's finding there. Several rules are separated by commas or spaces
 * (`skeptic-ignore A1, A5: …`); without rule ids the comment covers every rule. The reason is optional but
 * kept, so the report can say why. Works in any language whose comments start with one of the markers below.
 */

export interface InlineSuppression {
  /** Rule ids as written (compared case-insensitively); empty: every rule. */
  rules: string[];
  reason: string | null;
}

// A comment marker (//, #, /*, a block comment's leading *, --, <!--, ;, %), then the directive.
const DIRECTIVE = /(?:\/\/+|#+|\/\*+|^\s*\*|--|<!--|;+|%+)\s*skeptic-ignore\b([^:]*?)(?::(.*))?$/;
const RULE_ID = /^[A-Za-z][A-Za-z0-9-]*$/;
/** A line that is only a comment: a directive there covers the next line; after code, only its own. */
const COMMENT_ONLY = /^\s*(?:\/\/|#|\/\*|\*|--|<!--|;|%)/;

/**
 * The line without the `skeptic-ignore` comment it ends with (the line as it is when none): a finding's
 * fingerprint is taken from this, so adding a suppression on the finding's own line keeps its fingerprint and
 * `skeptic ci` does not take the hidden finding for a fixed one.
 */
export function withoutDirective(line: string): string {
  const trimmed = line.replace(/\s*(\*\/|-->)\s*$/, '');
  return parseSuppression(trimmed) ? trimmed.replace(DIRECTIVE, '').trimEnd() : line;
}

/** The suppression a line holds, or null when it holds none (or a malformed one). */
export function parseSuppression(line: string): InlineSuppression | null {
  const m = DIRECTIVE.exec(line.replace(/\s*(\*\/|-->)\s*$/, ''));
  if (!m) return null;
  const rules = m[1]!.split(/[\s,]+/).filter(Boolean);
  if (!rules.every((r) => RULE_ID.test(r))) return null;
  const reason = m[2]?.trim() || null;
  return { rules, reason };
}

/**
 * The suppression covering rule `ruleId` at 1-based `line` of `lines` (on that line, or a comment line just
 * above), with the line it is written on; null when none covers it.
 */
export function suppressionAt(
  lines: readonly string[],
  line: number,
  ruleId: string,
): (InlineSuppression & { line: number }) | null {
  for (const at of [line, line - 1]) {
    const text = lines[at - 1];
    const found = text === undefined || (at < line && !COMMENT_ONLY.test(text)) ? null : parseSuppression(text);
    if (found && (found.rules.length === 0 || found.rules.some((r) => r.toLowerCase() === ruleId.toLowerCase())))
      return { ...found, line: at };
  }
  return null;
}
