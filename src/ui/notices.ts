/**
 * Every message Skeptic shows the user goes through here, and is remembered (the last 50): the extension
 * exports them so integration tests, and other extensions, can see what a user was told.
 */
import * as vscode from 'vscode';

export interface Notice {
  level: 'info' | 'warning' | 'error';
  message: string;
}

const KEEP = 50;

export class Notices {
  readonly shown: Notice[] = [];

  info(message: string, ...actions: string[]): Thenable<string | undefined> {
    this.remember('info', message);
    return vscode.window.showInformationMessage(message, ...actions);
  }

  warning(message: string, ...actions: string[]): Thenable<string | undefined> {
    this.remember('warning', message);
    return vscode.window.showWarningMessage(message, ...actions);
  }

  error(message: string, ...actions: string[]): Thenable<string | undefined> {
    this.remember('error', message);
    return vscode.window.showErrorMessage(message, ...actions);
  }

  private remember(level: Notice['level'], message: string): void {
    this.shown.push({ level, message });
    if (this.shown.length > KEEP) this.shown.shift();
  }
}
