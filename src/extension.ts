/** Skeptic's entry point: wires the UI parts together, nothing more. */
import * as vscode from 'vscode';
import { REPORT_VIEW_TYPE } from './app/contributions';
import { FindingActions, CHAT_COMMAND } from './ui/codeActions';
import { mcpServers, registerAgentTools } from './ui/agentTools';
import { registerCommands } from './ui/commands';
import { ProblemsView } from './ui/diagnostics';
import { Dismissals } from './ui/dismiss';
import { registerFindingCommands } from './ui/findingCommands';
import { FindingStore } from './ui/findingStore';
import { FindingsTree } from './ui/findingsTree';
import { findingHover } from './ui/hover';
import { Notices, type Notice } from './ui/notices';
import { ReportPanel } from './ui/reportPanel';
import { LAST_REPORT, ReviewController } from './ui/reviewController';
import { ReviewStatus } from './ui/statusBar';

/** What the extension exports: the messages it has shown, and what the findings view shows (for tests and other extensions). */
export interface SkepticApi {
  readonly notices: readonly Notice[];
  findingsView(): string[];
  /** What the MCP server definition provider hands the editor. */
  mcpServers(): { command: string; args: string[]; cwd?: string }[];
}

export function activate(context: vscode.ExtensionContext): SkepticApi {
  const notices = new Notices();
  // The last run's findings, restored from the workspace state: Problems, the view and the status bar draw from it.
  const store = new FindingStore(context.workspaceState);
  const problems = new ProblemsView(store, context.extensionUri);
  const tree = new FindingsTree(store);
  const status = new ReviewStatus(store);
  const dismissals = new Dismissals(context.workspaceState, store, notices);
  // The report's Re-run button calls back into the controller, which shows reports in the panel.
  const report: ReportPanel = new ReportPanel(
    context.extensionUri,
    async (request) => void (await controller.run(request)),
    notices,
    () => context.workspaceState.get(LAST_REPORT),
  );
  const controller = new ReviewController(context, store, dismissals, status, report, notices);
  let hasChat = false;
  void vscode.commands.getCommands(true).then((ids) => (hasChat = ids.includes(CHAT_COMMAND)));
  context.subscriptions.push(
    store,
    problems,
    tree,
    status,
    report,
    controller,
    ...registerCommands(context, controller, store, notices),
    ...registerAgentTools(context, controller, store),
    ...registerFindingCommands({ store, dismissals, tree, notices, showInReport: (f) => controller.showLastReport(f) }),
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new FindingActions(problems, () => hasChat), {
      providedCodeActionKinds: FindingActions.kinds,
    }),
    vscode.languages.registerHoverProvider({ scheme: 'file' }, findingHover(problems)),
    vscode.window.registerWebviewPanelSerializer(REPORT_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state: unknown) => report.restore(panel, state),
    }),
  );
  return {
    notices: notices.shown,
    findingsView: () => tree.describe(),
    mcpServers: () =>
      mcpServers(context).map((s) => ({ command: s.command, args: s.args, ...(s.cwd ? { cwd: s.cwd.fsPath } : {}) })),
  };
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions; disposing the controller stops a running worker.
}
