/**
 * Untrusted text placed in a markdown report: a file name or a model's words may hold a newline (which would
 * start a forged heading or list item), other control characters, or backticks (which would end a code span
 * early), or a terminal's escape sequences. These helpers keep such text on its own line and inside its span.
 */
import { terminalText } from '../model/terminalText';

/**
 * Escape sequences and control characters removed (terminalText: the report is read in terminals too), and the
 * line breaks and tabs left shown as escapes (`\n`, `\t`), so the text stays one line.
 */
export function inlineText(s: string): string {
  return terminalText(s).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** A code span that holds `s` whole: fenced by more backticks than any run inside it (CommonMark). */
export function codeSpan(s: string): string {
  const text = inlineText(s);
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A model's prose as one paragraph: its line breaks become spaces, so no line of it can start a heading. */
export function paragraph(s: string): string {
  return inlineText(s.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ').trim());
}
