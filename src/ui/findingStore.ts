/**
 * The findings a user sees, in one place: the Problems panel, the status bar and the findings view read
 * from this store, so they always agree. It holds the latest run's findings (a review
 * replaces the findings of the files it reviewed, and only those), the run's summary, and survives a
 * window reload through the workspace state.
 */
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { PlainDiagnostic } from '../app/protocol';
import type { Finding } from '../model/finding';
import type { Billing } from '../model/pricing';

/** A finding and its Problems-panel form, as the worker made it (places clamped to the file). */
export interface StoredFinding {
  finding: Finding;
  diagnostic: PlainDiagnostic;
}

/** What the last run was: for the view's summary and the status bar. */
export interface LastRun {
  scope: string;
  files: number;
  calls: number;
  cost: number | null;
  /** `editor`: the editor's plan billed the calls (cost is null). */
  billing?: Billing;
  ms: number;
  /** The run stopped early or left units unreviewed. */
  partial: boolean;
}

interface Saved {
  folder: string;
  entries: StoredFinding[];
  summary: LastRun | null;
}

const KEY = 'skeptic.lastFindings';
// Our own data, written by this class: checked by shape only, so an old or foreign value is dropped, not trusted.
const isObject = (v: unknown) => typeof v === 'object' && v !== null;
const SavedShape = z.object({
  folder: z.string(),
  entries: z.array(
    z.object({
      finding: z.custom<Finding>((v) => isObject(v) && typeof (v as Finding).file === 'string'),
      diagnostic: z.custom<PlainDiagnostic>((v) => isObject(v) && isObject((v as PlainDiagnostic).at)),
    }),
  ),
  summary: z.nullable(z.custom<LastRun>(isObject)),
});

export class FindingStore implements vscode.Disposable {
  private state: Saved = { folder: '', entries: [], summary: null };
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {
    const saved = SavedShape.safeParse(memento.get(KEY));
    if (saved.success) this.state = saved.data;
  }

  get folder(): string {
    return this.state.folder;
  }

  get findings(): Finding[] {
    return this.state.entries.map((e) => e.finding);
  }

  get entries(): readonly StoredFinding[] {
    return this.state.entries;
  }

  get summary(): LastRun | null {
    return this.state.summary;
  }

  /** A review of `paths` (relative to `folder`) starts: their old findings go; another folder's all go. */
  begin(folder: string, paths: string[]): void {
    const reviewed = new Set(paths);
    const kept = this.state.folder === folder ? this.state.entries.filter((e) => !reviewed.has(e.finding.file)) : [];
    this.state = { folder, entries: kept, summary: this.state.folder === folder ? this.state.summary : null };
    this.fire(true);
  }

  /** A finding as it survives (dismissed ones never arrive: the worker leaves them out). */
  add(entry: StoredFinding): void {
    this.state.entries.push(entry);
    this.fire();
  }

  /** The run is over: its summary, and everything kept for the next reload. */
  finish(summary: LastRun): void {
    this.state.summary = summary;
    this.fire(true);
  }

  remove(fingerprint: string): void {
    this.state.entries = this.state.entries.filter((e) => e.finding.fingerprint !== fingerprint);
    this.fire(true);
  }

  clear(): void {
    this.state = { folder: this.state.folder, entries: [], summary: null };
    this.fire(true);
  }

  find(fingerprint: string): Finding | undefined {
    return this.state.entries.find((e) => e.finding.fingerprint === fingerprint)?.finding;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private fire(save = false): void {
    if (save) void this.memento.update(KEY, this.state);
    this.changed.fire();
  }
}
