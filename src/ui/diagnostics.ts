/**
 * The Problems panel, drawn from the finding store: one owned collection, redrawn whenever the store
 * changes. The places come from the worker, already clamped to the files; each diagnostic's code links to
 * its rule's page, shipped in media/rules/.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { PlainDiagnostic, SeverityName } from '../app/protocol';
import type { Finding } from '../model/finding';
import { ruleInfo, rulePageName } from '../model/rules';
import type { FindingStore } from './findingStore';

const SEVERITY: Record<SeverityName, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

export class ProblemsView implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('skeptic');
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly store: FindingStore,
    private readonly extensionUri: vscode.Uri,
  ) {
    this.subscription = store.onDidChange(() => this.render());
    this.render();
  }

  /** The finding behind a Skeptic diagnostic (VS Code hands code actions copies, so it is matched by place and text). */
  findingFor(uri: vscode.Uri, d: vscode.Diagnostic): Finding | undefined {
    if (d.source !== 'Skeptic') return undefined;
    const code = typeof d.code === 'object' ? String(d.code.value) : String(d.code);
    return this.entriesAt(uri, d.range.start.line).find(
      (e) => e.diagnostic.code === code && e.diagnostic.message === d.message,
    )?.finding;
  }

  /** The findings whose diagnostic starts on `line` (0-based) of `uri`. */
  findingsAt(uri: vscode.Uri, line: number): Finding[] {
    return this.entriesAt(uri, line).map((e) => e.finding);
  }

  /** The rule page a diagnostic's code links to, when the rule is in the catalog. */
  rulePage(ruleId: string): vscode.Uri | undefined {
    return ruleInfo(ruleId)
      ? vscode.Uri.joinPath(this.extensionUri, 'media', 'rules', rulePageName(ruleId))
      : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.collection.dispose();
  }

  private entriesAt(uri: vscode.Uri, line: number) {
    return this.store.entries.filter(
      (e) => this.uri(e.diagnostic.at.file).fsPath === uri.fsPath && e.diagnostic.at.line === line,
    );
  }

  private render(): void {
    const byFile = new Map<string, { uri: vscode.Uri; list: vscode.Diagnostic[] }>();
    for (const { diagnostic: d } of this.store.entries) {
      const diagnostic = new vscode.Diagnostic(range(d.at), d.message, SEVERITY[d.severity]);
      diagnostic.source = d.source;
      const target = this.rulePage(d.code);
      diagnostic.code = target ? { value: d.code, target } : d.code;
      diagnostic.relatedInformation = d.related.map(
        (r) =>
          new vscode.DiagnosticRelatedInformation(new vscode.Location(this.uri(r.at.file), range(r.at)), r.message),
      );
      const uri = this.uri(d.at.file);
      const slot = byFile.get(uri.toString()) ?? { uri, list: [] };
      slot.list.push(diagnostic);
      byFile.set(uri.toString(), slot);
    }
    this.collection.clear();
    for (const { uri, list } of byFile.values()) this.collection.set(uri, list);
  }

  private uri(file: string): vscode.Uri {
    return vscode.Uri.file(join(this.store.folder, file));
  }
}

function range(at: PlainDiagnostic['at']): vscode.Range {
  return new vscode.Range(at.line, 0, at.endLine, Number.MAX_SAFE_INTEGER);
}
