/** The Problems panel: one owned collection; a review replaces the findings of the files it reviews, and only those. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { toDiagnostic, type PlainLocation, type SeverityName } from '../app/diagnosticMap';
import { splitLines } from '../model/lines';
import type { Finding } from '../model/finding';

const SEVERITY: Record<SeverityName, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

export class FindingsView implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('skeptic');
  private readonly lineCounts = new Map<string, number | undefined>();

  /** Starts a review of `paths` (relative to `cwd`): their old findings go, other files keep theirs. */
  begin(cwd: string, paths: string[]): void {
    this.lineCounts.clear();
    for (const p of paths) this.collection.delete(vscode.Uri.file(join(cwd, p)));
  }

  add(cwd: string, finding: Finding, severityMap: Record<string, string>): void {
    const d = toDiagnostic(finding, (file) => this.lineCount(cwd, file), severityMap);
    const diagnostic = new vscode.Diagnostic(this.range(d.at), d.message, SEVERITY[d.severity]);
    diagnostic.source = d.source;
    diagnostic.code = d.code;
    diagnostic.relatedInformation = d.related.map((r) => new vscode.DiagnosticRelatedInformation(new vscode.Location(vscode.Uri.file(join(cwd, r.at.file)), this.range(r.at)), r.message));
    const uri = vscode.Uri.file(join(cwd, d.at.file));
    this.collection.set(uri, [...(this.collection.get(uri) ?? []), diagnostic]);
  }

  clear(): void {
    this.collection.clear();
  }

  dispose(): void {
    this.collection.dispose();
  }

  private range(at: PlainLocation): vscode.Range {
    return new vscode.Range(at.line, 0, at.endLine, Number.MAX_SAFE_INTEGER);
  }

  /** Line counts from disk, once per file per session: enough to clamp a model's line numbers. */
  private lineCount(cwd: string, file: string): number | undefined {
    const abs = join(cwd, file);
    if (!this.lineCounts.has(abs)) {
      try {
        this.lineCounts.set(abs, splitLines(readFileSync(abs, 'utf8')).length);
      } catch {
        this.lineCounts.set(abs, undefined);
      }
    }
    return this.lineCounts.get(abs);
  }
}
