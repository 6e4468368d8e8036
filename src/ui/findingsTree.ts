/**
 * The Skeptic findings view: the last run's summary, then findings by file, then by priority, with counts.
 * A priority filter narrows it; clicking a finding opens its line; its inline action dismisses it.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS, FINDINGS_VIEW } from '../app/contributions';
import type { Finding } from '../model/finding';
import { PRIORITY_ORDER } from '../model/order';
import { plural } from '../model/plural';
import { formatCost } from '../model/pricing';
import { elapsed } from '../model/progress';
import type { Priority } from '../model/records';
import { ruleLabel } from '../model/rules';
import type { FindingStore } from './findingStore';

const HEADINGS: Record<Priority, string> = {
  must_fix: 'Must fix',
  should_fix: 'Should fix',
  nice_to_have: 'Nice to have',
};
const ICONS: Record<Priority, string> = { must_fix: 'error', should_fix: 'warning', nice_to_have: 'info' };

type Node =
  | { kind: 'summary' }
  | { kind: 'file'; file: string }
  | { kind: 'group'; file: string; priority: Priority }
  | { kind: 'finding'; finding: Finding };

export class FindingsTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private shown = new Set<Priority>(PRIORITY_ORDER);
  readonly view: vscode.TreeView<Node>;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: FindingStore) {
    this.view = vscode.window.createTreeView(FINDINGS_VIEW, { treeDataProvider: this, showCollapseAll: true });
    this.subscription = store.onDidChange(() => this.refresh());
    this.refresh();
  }

  /** The priorities shown (all by default). */
  get filter(): ReadonlySet<Priority> {
    return this.shown;
  }

  setFilter(priorities: Priority[]): void {
    this.shown = new Set(priorities);
    this.refresh();
  }

  /** What the view shows, as text: for tests and the e2e suite to check the counts. */
  describe(): string[] {
    const lines: string[] = [];
    const walk = (nodes: Node[], depth: number) => {
      for (const n of nodes) {
        const item = this.getTreeItem(n);
        lines.push(
          `${'  '.repeat(depth)}${String(item.label)}${item.description ? ` — ${String(item.description)}` : ''}`,
        );
        walk(this.getChildren(n), depth + 1);
      }
    };
    walk(this.getChildren(), 0);
    return lines;
  }

  getChildren(node?: Node): Node[] {
    const visible = this.store.findings.filter((f) => this.shown.has(f.priority));
    if (!node) {
      const files = [...new Set(visible.map((f) => f.file))].sort();
      return [
        ...(this.store.summary ? [{ kind: 'summary' as const }] : []),
        ...files.map((file) => ({ kind: 'file' as const, file })),
      ];
    }
    if (node.kind === 'file')
      return PRIORITY_ORDER.filter((p) => visible.some((f) => f.file === node.file && f.priority === p)).map(
        (priority) => ({ kind: 'group', file: node.file, priority }),
      );
    if (node.kind === 'group')
      return visible
        .filter((f) => f.file === node.file && f.priority === node.priority)
        .sort((a, b) => a.line - b.line)
        .map((finding) => ({ kind: 'finding', finding }));
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const visible = this.store.findings.filter((f) => this.shown.has(f.priority));
    switch (node.kind) {
      case 'summary': {
        const s = this.store.summary!;
        const item = new vscode.TreeItem(`Last run: ${s.scope}`);
        item.description = `${plural(s.files, 'file')} · ${plural(s.calls, 'call')} · ${formatCost(s.cost, s.billing)} · ${elapsed(s.ms)}${s.partial ? ' · partial' : ''}`;
        item.iconPath = new vscode.ThemeIcon('history');
        item.contextValue = 'summary';
        return item;
      }
      case 'file': {
        const item = new vscode.TreeItem(node.file, vscode.TreeItemCollapsibleState.Expanded);
        item.description = plural(visible.filter((f) => f.file === node.file).length, 'finding');
        item.resourceUri = vscode.Uri.file(join(this.store.folder, node.file));
        item.iconPath = vscode.ThemeIcon.File;
        return item;
      }
      case 'group': {
        const item = new vscode.TreeItem(HEADINGS[node.priority], vscode.TreeItemCollapsibleState.Expanded);
        item.description = String(visible.filter((f) => f.file === node.file && f.priority === node.priority).length);
        item.iconPath = new vscode.ThemeIcon(ICONS[node.priority]);
        return item;
      }
      case 'finding': {
        const f = node.finding;
        const item = new vscode.TreeItem(`${f.line}: ${f.action}`);
        item.description = ruleLabel(f.rule_id);
        item.tooltip = new vscode.MarkdownString(
          `**${ruleLabel(f.rule_id)}** · ${f.priority.replace(/_/g, ' ')} · ${f.confidence} confidence\n\n${f.action} (${f.rationale})${f.verdict ? `\n\n*Challenger:* ${f.verdict}` : ''}`,
        );
        item.contextValue = 'finding';
        item.command = { title: 'Go to finding', command: COMMANDS.revealFinding, arguments: [f.fingerprint] };
        return item;
      }
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.view.dispose();
  }

  private refresh(): void {
    const visible = this.store.findings.filter((f) => this.shown.has(f.priority)).length;
    const total = this.store.findings.length;
    this.view.badge = total ? { value: total, tooltip: plural(total, 'Skeptic finding') } : undefined;
    this.view.description = visible === total ? undefined : `${visible} of ${total} shown`;
    this.view.message =
      total === 0
        ? this.store.summary
          ? 'No findings: the reviewed code is clean.'
          : 'Review files from the Explorer or changes from Source Control.'
        : undefined;
    this.changed.fire();
  }
}
