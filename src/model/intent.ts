/**
 * What a change is for, as its author stated it: a pull request's title and description, the commit subjects
 * of a range, or a note the user gave (`--intent`). It reaches the model as quoted data in a packet, cut to a
 * size the packet states, never as instructions.
 */
import * as z from 'zod/mini';

export const Intent = z.object({
  /** Where the text came from, in words: "pull request #12", "commit subjects of the range", "--intent". */
  source: z.string(),
  text: z.string(),
});
export type Intent = z.infer<typeof Intent>;

/** Characters of stated intent a packet carries: enough for a title and a real description, not a pasted log. */
export const INTENT_CAP = 4_000;

/** The packet's `intent` field (none for an empty one): the text cut to INTENT_CAP, the cap and the cut stated. */
export function intentPacket(intent: Intent | undefined): { intent?: IntentField } {
  const text = intent?.text.trim();
  if (!intent || !text) return {};
  const cut = text.length > INTENT_CAP;
  // Never end on half a surrogate pair.
  const kept = cut ? text.slice(0, INTENT_CAP).replace(/[\uD800-\uDBFF]$/, '') : text;
  return { intent: { source: intent.source, text: kept, cap_chars: INTENT_CAP, cut } };
}

export interface IntentField {
  source: string;
  text: string;
  cap_chars: number;
  cut: boolean;
}

/** A pull request's title and description as one intent. */
export function pullRequestIntent(number: number, title: string, body: string): Intent {
  return { source: `pull request #${number}`, text: body.trim() ? `${title}\n\n${body}` : title };
}
