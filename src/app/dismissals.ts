/**
 * Keeps dismissed findings out of a run: the team's file (`.skeptic/dismissed.json` in the working folder),
 * the user's own list (passed in the job by the extension) and `skeptic-ignore` comments in the code. Every
 * finding that comes out is stamped with its fingerprint, the key all three (and SARIF) use. What they hide
 * is kept apart in the result (`suppressed`), with what hid it and whether the change under review added
 * that suppression, so every output can say so.
 */
import { readRegularFileSync } from '../io/regularFile';
import { readTeamFile } from '../io/teamDismissals';
import { MAX_FILE_BYTES } from '../model/fileSize';
import { join } from 'node:path';
import type { EmitFn, ReviewResult } from '../model/events';
import { capText, overlaps, splitLines, type LineRange } from '../model/lines';
import type { Finding } from '../model/finding';
import { toFinding, type MergedFinding } from '../model/lens';
import {
  MAX_NOTE_CHARS,
  parseDismissalFile,
  REASON_LABELS,
  TEAM_DISMISSALS_PATH,
  type Dismissal,
} from '../model/dismissals';
import { fingerprint, lineText } from '../model/fingerprint';
import { suppressionAt, withoutDirective } from '../model/suppression';
import type { SuppressedFinding } from '../model/suppressed';
import { ScopeError } from '../scope/inventory';

/** The team's dismissals, and the line of the file each one's fingerprint is written on (when it could be found). */
export interface TeamFile {
  dismissals: Dismissal[];
  lines: Map<string, number>;
}

/**
 * The team's dismissals in `cwd`, or none when there is no file; a malformed file is a setup error. One that
 * is not a regular file (a pipe, a link, a device) or is over the size cap is ignored, and `warn` says so.
 */
export async function loadTeamFile(cwd: string, warn: (message: string) => void = () => {}): Promise<TeamFile> {
  let text: string | null;
  try {
    text = await readTeamFile(cwd);
  } catch (err) {
    warn(`${TEAM_DISMISSALS_PATH} ${(err as Error).message}; it is ignored, so the team's dismissals do not apply`);
    return { dismissals: [], lines: new Map() };
  }
  if (text === null) return { dismissals: [], lines: new Map() };
  try {
    return { dismissals: parseDismissalFile(text), lines: fingerprintLines(text) };
  } catch (err) {
    throw new ScopeError((err as Error).message);
  }
}

/** Where each `"fingerprint": "…"` is written, 1-based (the first place, for a fingerprint written twice). */
function fingerprintLines(text: string): Map<string, number> {
  const out = new Map<string, number>();
  splitLines(text).forEach((line, i) => {
    for (const m of line.matchAll(/"fingerprint"\s*:\s*"([0-9a-f]+)"/g)) if (!out.has(m[1]!)) out.set(m[1]!, i + 1);
  });
  return out;
}

/** What the screen knows of the change under review: its added lines per cwd-relative path (absent: not a change). */
export type ChangedLines = ReadonlyMap<string, LineRange[]>;

type Verdict = Omit<SuppressedFinding, 'finding' | 'lens'> | null;

export class FindingScreen {
  private readonly team: Map<string, Dismissal>;
  private readonly user: Map<string, Dismissal>;
  private readonly lines = new Map<string, string[]>();

  constructor(
    private readonly cwd: string,
    private readonly teamFile: TeamFile,
    user: Dismissal[],
    private readonly changed?: ChangedLines,
  ) {
    this.team = new Map(teamFile.dismissals.map((d) => [d.fingerprint, d]));
    this.user = new Map(user.map((d) => [d.fingerprint, d]));
  }

  /** The finding with its fingerprint, or null when a dismissal or an inline comment removes it. */
  screen(f: Finding): Finding | null {
    const { finding, verdict } = this.judge(f);
    return verdict ? null : finding;
  }

  /**
   * An engine's event stream, screened: dismissed findings are not shown, the others carry their fingerprint.
   * The run's `done` event is held back; the caller emits the screened result instead.
   */
  events(emit: EmitFn): EmitFn {
    return (e) => {
      if (e.type === 'done') return;
      if (e.type !== 'finding') return emit(e);
      const kept = this.screen(e.finding);
      if (kept) emit({ ...e, finding: kept });
    };
  }

  /** The result without dismissed findings (in either mode), the rest stamped, and the hidden ones apart. */
  result<R extends ReviewResult>(result: R): R {
    const suppressed: SuppressedFinding[] = [];
    const keep = (f: Finding, lens?: MergedFinding): Finding | null => {
      const { finding, verdict } = this.judge(f);
      if (verdict) suppressed.push({ finding, ...(lens ? { lens } : {}), ...verdict });
      return verdict ? null : finding;
    };
    if (result.mode === 'lenses') {
      // The lens outputs list their own records: the same ones go (matched through the shared Finding).
      const stays = (m: MergedFinding) => keep(toFinding(m), m) !== null;
      const lensFindings = result.lensFindings.filter(stays);
      const crossRepo = result.crossRepo.filter(stays);
      const findings = result.findings.flatMap((f) => this.screen(f) ?? []);
      return { ...result, findings, lensFindings, crossRepo, ...(suppressed.length ? { suppressed } : {}) };
    }
    const findings = result.findings.flatMap((f) => keep(f) ?? []);
    return { ...result, findings, ...(suppressed.length ? { suppressed } : {}) };
  }

  private judge(f: Finding): { finding: Finding; verdict: Verdict } {
    const lines = this.fileLines(f.file);
    const print = fingerprint({
      rule_id: f.rule_id,
      file: f.file,
      function: f.function,
      code: withoutDirective(lineText(lines, f.line) ?? ''),
    });
    const finding = { ...f, fingerprint: print };
    const team = this.team.get(print);
    if (team) {
      const line = this.teamFile.lines.get(print);
      const at = line ? { file: TEAM_DISMISSALS_PATH, line } : null;
      // An entry whose line cannot be found (an escaped key, say) counts as added when the change touches the file.
      const addedInChange = this.added(TEAM_DISMISSALS_PATH, line ?? null);
      return { finding, verdict: { by: 'team', note: dismissalNote(team), addedInChange, at } };
    }
    const user = this.user.get(print);
    if (user) return { finding, verdict: { by: 'user', note: dismissalNote(user), addedInChange: false, at: null } };
    const inline = suppressionAt(lines, f.line, f.rule_id);
    if (inline)
      return {
        finding,
        verdict: {
          by: 'comment',
          note: inline.reason && capText(inline.reason, MAX_NOTE_CHARS),
          // Added by the change when it writes the comment, or when it adds the line an older comment now covers.
          addedInChange: this.added(f.file, inline.line) || this.added(f.file, f.line),
          at: { file: f.file, line: inline.line },
          ...(inline.rules.length === 0 ? { everyRule: true as const } : {}),
        },
      };
    return { finding, verdict: null };
  }

  /** Whether the change adds `line` of `file` (null: any line of it). */
  private added(file: string, line: number | null): boolean {
    const ranges = this.changed?.get(file);
    if (!ranges?.length) return false;
    return line === null || overlaps([line, line], ranges);
  }

  /** The file's lines, read once per run (an unreadable file has none: its findings keep a line-less fingerprint). */
  private fileLines(file: string): string[] {
    let lines = this.lines.get(file);
    if (!lines) {
      // Never blocking, never through a link: the file under review may have been swapped for a pipe since.
      const text = readRegularFileSync(join(this.cwd, file), MAX_FILE_BYTES);
      lines = text === null ? [] : splitLines(text);
      this.lines.set(file, lines);
    }
    return lines;
  }
}

/** A dismissal's reason and note as one line ("Won't fix: the caller checks"), the note capped. */
function dismissalNote(d: Dismissal): string {
  const note = d.note?.trim();
  return `${REASON_LABELS[d.reason]}${note ? `: ${capText(note, MAX_NOTE_CHARS)}` : ''}`;
}
