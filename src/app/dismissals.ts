/**
 * Keeps dismissed findings out of a run: the team's file (`.skeptic/dismissed.json` in the working folder),
 * the user's own list (passed in the job by the extension) and `skeptic-ignore` comments in the code. Every
 * finding that comes out is stamped with its fingerprint, the key all three (and SARIF) use.
 */
import { readOwnFile, readRegularFileSync } from '../io/regularFile';
import { MAX_FILE_BYTES } from '../model/fileSize';
import { join } from 'node:path';
import type { EmitFn, ReviewResult } from '../model/events';
import { toFinding } from '../engine/lenses/findings';
import { splitLines } from '../model/lines';
import type { Finding } from '../model/finding';
import { parseDismissalFile, TEAM_DISMISSALS_PATH, type DismissedCounts, type Dismissal } from '../model/dismissals';
import { fingerprint, lineText } from '../model/fingerprint';
import { suppressionAt } from '../model/suppression';
import { ScopeError } from '../scope/inventory';

/** A team file larger than this is not a list of dismissals anyone reviews: it is ignored, with a warning. */
export const MAX_DISMISSAL_FILE_BYTES = 1 << 20;

/**
 * The team's dismissals in `cwd`, or none when there is no file; a malformed file is a setup error. One that
 * is not a regular file (a pipe, a link, a device) or is over the size cap is ignored, and `warn` says so.
 */
export async function loadTeamDismissals(
  cwd: string,
  warn: (message: string) => void = () => {},
): Promise<Dismissal[]> {
  let text: string | null;
  try {
    text = await readOwnFile(join(cwd, TEAM_DISMISSALS_PATH), MAX_DISMISSAL_FILE_BYTES);
  } catch (err) {
    warn(`${TEAM_DISMISSALS_PATH} ${(err as Error).message}; it is ignored, so the team's dismissals do not apply`);
    return [];
  }
  if (text === null) return [];
  try {
    return parseDismissalFile(text);
  } catch (err) {
    throw new ScopeError((err as Error).message);
  }
}

type Verdict = { kind: keyof DismissedCounts } | null;

export class FindingScreen {
  private readonly team: Set<string>;
  private readonly user: Set<string>;
  private readonly lines = new Map<string, string[]>();

  constructor(
    private readonly cwd: string,
    team: Dismissal[],
    user: Dismissal[],
  ) {
    this.team = new Set(team.map((d) => d.fingerprint));
    this.user = new Set(user.map((d) => d.fingerprint));
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

  /** The result without dismissed findings (in either mode), the rest stamped, and the counts for the report. */
  result<R extends ReviewResult>(result: R): R {
    const counts: DismissedCounts = { team: 0, user: 0, inline: 0 };
    const keep = (f: Finding): Finding | null => {
      const { finding, verdict } = this.judge(f);
      if (verdict) counts[verdict.kind]++;
      return verdict ? null : finding;
    };
    const findings = result.findings.flatMap((f) => keep(f) ?? []);
    const out = {
      ...result,
      findings,
      ...(counts.team + counts.user + counts.inline > 0 ? { dismissed: counts } : {}),
    };
    if (out.mode === 'lenses') {
      // The lens report lists its own records: drop the same ones there (matched through the shared Finding).
      const kept = new Set(findings.map((f) => f.fingerprint));
      const stays = (m: Parameters<typeof toFinding>[0]) => kept.has(this.judge(toFinding(m)).finding.fingerprint);
      return { ...out, lensFindings: out.lensFindings.filter(stays), crossRepo: out.crossRepo.filter(stays) } as R;
    }
    return out as R;
  }

  private judge(f: Finding): { finding: Finding; verdict: Verdict } {
    const lines = this.fileLines(f.file);
    const print = fingerprint({
      rule_id: f.rule_id,
      file: f.file,
      function: f.function,
      code: lineText(lines, f.line),
    });
    const finding = { ...f, fingerprint: print };
    if (this.team.has(print)) return { finding, verdict: { kind: 'team' } };
    if (this.user.has(print)) return { finding, verdict: { kind: 'user' } };
    if (suppressionAt(lines, f.line, f.rule_id)) return { finding, verdict: { kind: 'inline' } };
    return { finding, verdict: null };
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
