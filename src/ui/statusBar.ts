/**
 * The status bar item: the run's progress line while a review runs (click: cancel), the finding count of
 * the store after it (click: the report) — the same count the Problems panel and the findings view show.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../app/contributions';
import { plural } from '../model/plural';
import type { FindingStore } from './findingStore';

export class ReviewStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('skeptic.status', vscode.StatusBarAlignment.Left, 10);
  private runningNow = false;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: FindingStore) {
    this.item.name = 'Skeptic';
    this.subscription = store.onDidChange(() => {
      if (!this.runningNow) this.showCount();
    });
    this.showCount();
  }

  running(line: string): void {
    this.runningNow = true;
    this.item.text = `$(sync~spin) Skeptic: ${line}`;
    this.item.tooltip = 'Skeptic review running: click to cancel';
    this.item.command = COMMANDS.cancel;
    this.item.show();
  }

  finished(): void {
    this.runningNow = false;
    this.showCount();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }

  /** The store's count; hidden before any review (or after Clear Findings). */
  private showCount(): void {
    const summary = this.store.summary;
    if (!summary && this.store.findings.length === 0) return this.item.hide();
    this.item.text = `$(checklist) Skeptic: ${plural(this.store.findings.length, 'finding')}${summary?.partial ? ' (partial)' : ''}`;
    this.item.tooltip = 'Show the last Skeptic report';
    this.item.command = COMMANDS.showReport;
    this.item.show();
  }
}
