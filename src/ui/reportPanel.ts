/**
 * The report webview: one panel, rendered by the host, restored after a window reload from its saved
 * state. Messages from the page are checked before they are acted on.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { REPORT_VIEW_TYPE } from '../app/contributions';
import { ReviewTarget } from '../app/choices';
import type { Notices } from './notices';
import { renderReportPage } from './reportPage';

const PageMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('open'), file: z.string().check(z.minLength(1)), line: z.int().check(z.minimum(1)) }),
  z.object({ type: z.literal('openMarkdown') }),
  z.object({ type: z.literal('rerun') }),
]);

export const PanelState = z.object({
  reportPath: z.string(),
  cwd: z.string(),
  // A state saved before the target had its fields' present names restores without its rerun.
  rerun: z.catch(z.optional(ReviewTarget), undefined),
  /** A finding to bring into view when the page loads ("Show in Report"). */
  reveal: z.optional(z.object({ file: z.string(), line: z.int() })),
});
export type PanelState = z.infer<typeof PanelState>;

export class ReportPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private state: PanelState | undefined;
  private readonly listeners: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly rerun: (request: ReviewTarget) => Promise<void>,
    private readonly notices: Notices,
    /** The last report of this workspace, for a restore whose panel state was not saved (web hosts may drop it on reload). */
    private readonly lastReport: () => unknown,
  ) {}

  /** Shows (or refreshes) the panel with the report at `state.reportPath`. */
  async show(state: PanelState, markdown?: string): Promise<void> {
    if (!this.panel)
      this.adopt(
        vscode.window.createWebviewPanel(REPORT_VIEW_TYPE, 'Skeptic Report', vscode.ViewColumn.Beside, this.options()),
      );
    this.panel!.reveal(undefined, true);
    await this.render(state, markdown);
  }

  /** For VS Code's serializer: takes over a panel restored after a reload. */
  async restore(panel: vscode.WebviewPanel, saved: unknown): Promise<void> {
    const state = PanelState.safeParse(saved);
    const fallback = PanelState.safeParse(this.lastReport());
    this.adopt(panel);
    panel.webview.options = this.options();
    if (state.success) await this.render(state.data);
    else if (fallback.success) await this.render(fallback.data);
    else panel.webview.html = '<p>This Skeptic report could not be restored. Run "Skeptic: Show Last Report".</p>';
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.listeners.splice(0)) d.dispose();
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'media')],
      retainContextWhenHidden: false,
    };
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    this.listeners.push(
      panel.onDidDispose(() => {
        this.panel = undefined;
        for (const d of this.listeners.splice(0)) d.dispose();
      }),
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.onMessage(raw)),
    );
  }

  private async render(state: PanelState, markdown?: string): Promise<void> {
    const panel = this.panel!;
    this.state = state;
    let text = markdown;
    try {
      text ??= await readFile(state.reportPath, 'utf8');
    } catch {
      text = `# Report not found\n\n\`${state.reportPath}\` no longer exists.`;
    }
    const media = (name: string) =>
      panel.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', name)).toString();
    panel.title = `Skeptic: ${basename(state.reportPath)}`;
    panel.webview.html = renderReportPage(text, {
      cspSource: panel.webview.cspSource,
      nonce: randomBytes(16).toString('base64'),
      styleUri: media('report.css'),
      scriptUri: media('report.js'),
      state,
    });
  }

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = PageMessage.safeParse(raw);
    const state = this.state;
    if (!parsed.success || !state) return;
    const m = parsed.data;
    if (m.type === 'open') {
      // Report paths are relative to the review's folder; a link may not point outside it.
      if (isAbsolute(m.file) || m.file.split('/').includes('..')) return;
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(state.cwd, m.file)));
      const line = Math.min(m.line - 1, doc.lineCount - 1);
      await vscode.window.showTextDocument(doc, {
        viewColumn: vscode.ViewColumn.One,
        selection: new vscode.Range(line, 0, line, 0),
      });
    } else if (m.type === 'openMarkdown') {
      await vscode.window.showTextDocument(vscode.Uri.file(state.reportPath), { viewColumn: vscode.ViewColumn.One });
    } else if (state.rerun) {
      await this.rerun(state.rerun);
    } else {
      void this.notices.info(
        'Skeptic: this report does not say how it was started; start a new review from the Explorer or the Command Palette.',
      );
    }
  }
}
