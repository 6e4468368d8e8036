/** The Problems panel: one owned collection; a review replaces the findings of the files it reviews, and only those. */
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { PlainDiagnostic, SeverityName } from '../app/protocol';

const SEVERITY: Record<SeverityName, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

export class FindingsView implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('skeptic');

  /** Starts a review of `paths` (relative to `cwd`): their old findings go, other files keep theirs. */
  begin(cwd: string, paths: string[]): void {
    for (const p of paths) this.collection.delete(vscode.Uri.file(join(cwd, p)));
  }

  /** A diagnostic as the worker made it: places already clamped to the files, so nothing is read here. */
  add(cwd: string, d: PlainDiagnostic): void {
    const diagnostic = new vscode.Diagnostic(range(d.at), d.message, SEVERITY[d.severity]);
    diagnostic.source = d.source;
    diagnostic.code = d.code;
    diagnostic.relatedInformation = d.related.map((r) => new vscode.DiagnosticRelatedInformation(new vscode.Location(vscode.Uri.file(join(cwd, r.at.file)), range(r.at)), r.message));
    const uri = vscode.Uri.file(join(cwd, d.at.file));
    this.collection.set(uri, [...(this.collection.get(uri) ?? []), diagnostic]);
  }

  clear(): void {
    this.collection.clear();
  }

  dispose(): void {
    this.collection.dispose();
  }
}

function range(at: PlainDiagnostic['at']): vscode.Range {
  return new vscode.Range(at.line, 0, at.endLine, Number.MAX_SAFE_INTEGER);
}
