/**
 * Dismissed findings: records a user keeps (workspace state) or a team commits (`.skeptic/dismissed.json`).
 * A dismissal matches by fingerprint; the rest of the record is for the humans who read the file in a pull
 * request, and for the challenger, which gets the reasoned ones as examples of what the team does not want.
 */
// zod/mini: the extension host reads and writes these too, and the full zod would be most of its bundle.
import * as z from 'zod/mini';
import { SKEPTIC_FOLDER } from './skepticFolder';
import { capText } from './lines';

export const DISMISSAL_REASONS = ['false_positive', 'wont_fix', 'fixed_elsewhere'] as const;
export const DismissalReason = z.enum(DISMISSAL_REASONS, { error: `must be one of ${DISMISSAL_REASONS.join(', ')}` });
export type DismissalReason = z.infer<typeof DismissalReason>;

export const REASON_LABELS: Record<DismissalReason, string> = {
  false_positive: 'False positive',
  wont_fix: "Won't fix",
  fixed_elsewhere: 'Fixed elsewhere',
};

const text = () => z.string().check(z.minLength(1, 'must not be empty'));

export const Dismissal = z.object({
  fingerprint: z
    .string()
    .check(z.regex(/^[0-9a-f]{8,64}$/, 'a fingerprint is hexadecimal (copy it from a report or let Skeptic write it)')),
  rule_id: text(),
  /** Relative to the folder that holds `.skeptic/`, forward slashes. */
  file: text(),
  function: z._default(z.nullable(z.string()), null),
  /** The finding's line as it was when dismissed. */
  code: z._default(z.string(), ''),
  /** The finding's action, so a reader knows what was dismissed. */
  finding: z._default(z.string(), ''),
  reason: DismissalReason,
  note: z.optional(z.string()),
  /** YYYY-MM-DD */
  date: z.optional(z.string()),
});
export type Dismissal = z.infer<typeof Dismissal>;
export type DismissalInput = z.input<typeof Dismissal>;

export const DismissalFile = z.object({
  version: z.literal(1, { error: 'must be 1' }),
  dismissed: z.array(Dismissal),
});
export type DismissalFile = z.infer<typeof DismissalFile>;

export const TEAM_DISMISSALS_PATH = `${SKEPTIC_FOLDER}/dismissed.json`;

/** Reads a team file's text; a problem names the file and the first bad field. */
export function parseDismissalFile(text: string, shownPath = TEAM_DISMISSALS_PATH): Dismissal[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${shownPath} is not valid JSON (${(err as Error).message}); fix it or delete it`);
  }
  const parsed = DismissalFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${shownPath}: ${issue.path.join('.') || 'the file'}: ${issue.message}`);
  }
  return parsed.data.dismissed;
}

/** The file's text with `add` in it (replacing a dismissal of the same fingerprint), sorted so diffs stay small. */
export function withDismissal(existing: Dismissal[], add: Dismissal): string {
  const all = [...existing.filter((d) => d.fingerprint !== add.fingerprint), add];
  all.sort(
    (a, b) =>
      a.file.localeCompare(b.file) || a.rule_id.localeCompare(b.rule_id) || a.fingerprint.localeCompare(b.fingerprint),
  );
  const file: DismissalFile = { version: 1, dismissed: all };
  return JSON.stringify(file, null, 2) + '\n';
}

/**
 * What one example may carry to the challenger: a note is a reason, not an essay, and the code and finding
 * are one line each. A longer field is cut (marked), so a 50 MB note in a committed file costs nothing.
 */
export const MAX_NOTE_CHARS = 500;
const MAX_EXAMPLE_FIELD_CHARS = 300;

/** Dismissals with a note, most recent first: the examples a challenger is shown (at most `max`, each capped). */
export function challengeExamples(
  dismissals: Dismissal[],
  max: number,
): Array<{ rule_id: string; code: string; finding: string; reason: DismissalReason; note: string }> {
  const field = (text: string) => capText(text, MAX_EXAMPLE_FIELD_CHARS);
  return dismissals
    .filter((d) => d.note?.trim())
    .sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''))
    .slice(0, max)
    .map((d) => ({
      rule_id: field(d.rule_id),
      code: field(d.code),
      finding: field(d.finding),
      reason: d.reason,
      note: capText(d.note!.trim(), MAX_NOTE_CHARS),
    }));
}
