/** The status bar item: the step while a review runs, the findings count after it (click: the report). */
import * as vscode from 'vscode';
import { COMMANDS } from '../app/contributions';

export class ReviewStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('skeptic.status', vscode.StatusBarAlignment.Left, 10);

  constructor() {
    this.item.name = 'Skeptic';
  }

  running(message: string): void {
    this.item.text = `$(sync~spin) Skeptic: ${message}`;
    this.item.tooltip = 'Skeptic review running: click to cancel';
    this.item.command = COMMANDS.cancel;
    this.item.show();
  }

  finished(findings: number, partial: boolean): void {
    this.item.text = `$(checklist) Skeptic: ${findings} finding${findings === 1 ? '' : 's'}${partial ? ' (partial)' : ''}`;
    this.item.tooltip = 'Show the last Skeptic report';
    this.item.command = COMMANDS.showReport;
    this.item.show();
  }

  hide(): void {
    this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}
