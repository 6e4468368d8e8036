/** Skeptic's entry point: wires the UI parts together, nothing more. */
import * as vscode from 'vscode';
import { REPORT_VIEW_TYPE } from './app/contributions';
import { registerCommands } from './ui/commands';
import { FindingsView } from './ui/diagnostics';
import { Notices, type Notice } from './ui/notices';
import { ReportPanel } from './ui/reportPanel';
import { LAST_REPORT, ReviewController } from './ui/reviewController';
import { ReviewStatus } from './ui/statusBar';

/** What the extension exports: the messages it has shown (for integration tests and other extensions). */
export interface SkepticApi {
  readonly notices: readonly Notice[];
}

export function activate(context: vscode.ExtensionContext): SkepticApi {
  const notices = new Notices();
  const findings = new FindingsView();
  const status = new ReviewStatus();
  // The report's Re-run button calls back into the controller, which shows reports in the panel.
  const report: ReportPanel = new ReportPanel(context.extensionUri, (request) => controller.run(request), notices, () => context.workspaceState.get(LAST_REPORT));
  const controller = new ReviewController(context, findings, status, report, notices);
  context.subscriptions.push(
    findings,
    status,
    report,
    controller,
    ...registerCommands(context, controller, findings, status, notices),
    vscode.window.registerWebviewPanelSerializer(REPORT_VIEW_TYPE, { deserializeWebviewPanel: (panel, state: unknown) => report.restore(panel, state) }),
  );
  return { notices: notices.shown };
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions; disposing the controller stops a running worker.
}
