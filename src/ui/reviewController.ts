/**
 * Starts reviews from what the user chose, runs each in a worker, and routes what comes back: progress to
 * the notification and status bar, findings to the Problems panel as they survive, the report to the webview.
 */
import * as vscode from 'vscode';
import type { RelayedEvent, ReviewRequest, RunSummary, WorkerMessage } from '../app/protocol';
import { describeCost } from '../model/pricing';
import { apiKey, offerToSetKey } from './apiKey';
import type { FindingsView } from './diagnostics';
import type { ReportPanel, PanelState } from './reportPanel';
import type { Notices } from './notices';
import { readSettings } from './settings';
import type { ReviewStatus } from './statusBar';
import { ReviewWorker, type WorkerOutcome } from './workerHost';

export const LAST_REPORT = 'skeptic.lastReport';

export class ReviewController implements vscode.Disposable {
  private running: ReviewWorker | undefined;
  private readonly log = vscode.window.createOutputChannel('Skeptic');

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly findings: FindingsView,
    private readonly status: ReviewStatus,
    private readonly report: ReportPanel,
    private readonly notices: Notices,
  ) {}

  /** Runs one review; with several workspace folders, the caller runs one per folder. */
  async run(request: ReviewRequest): Promise<void> {
    if (this.running) {
      const choice = await this.notices.warning('A Skeptic review is already running.', 'Cancel It');
      if (choice === 'Cancel It') this.cancel();
      return;
    }
    const key = await apiKey(this.context.secrets);
    if (!key) return offerToSetKey('Skeptic needs an Anthropic API key to review code.', this.notices);
    const settings = readSettings(vscode.Uri.file(request.folder));
    const tracker = new RunTracker();
    const worker: ReviewWorker = new ReviewWorker(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'worker.js').fsPath, (m) => tracker.pending.push(this.onMessage(m, request, worker, tracker)));
    this.running = worker;
    try {
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Skeptic', cancellable: true },
        async (progress, token) => {
          tracker.progress = progress;
          token.onCancellationRequested(() => worker.cancel());
          worker.send({ type: 'start', request, settings, apiKey: key });
          const done = await worker.done;
          // Handlers still at work (showing the report, asking to confirm) finish before the run counts as over.
          for (const r of await Promise.allSettled(tracker.pending)) {
            if (r.status === 'rejected') this.log.appendLine(`error: ${r.reason instanceof Error ? (r.reason.stack ?? r.reason.message) : String(r.reason)}`);
          }
          return done;
        },
      );
      await this.conclude(outcome, tracker);
    } finally {
      this.running = undefined;
      worker.dispose();
    }
  }

  cancel(): void {
    this.running?.cancel();
  }

  /** The most recent report, reopened from its file. */
  async showLastReport(): Promise<void> {
    const last = this.context.workspaceState.get<PanelState>(LAST_REPORT);
    if (!last) return void this.notices.info('Skeptic: no report yet in this workspace.');
    await this.report.show(last);
  }

  dispose(): void {
    this.running?.dispose();
    this.log.dispose();
  }

  private async onMessage(m: WorkerMessage, request: ReviewRequest, worker: ReviewWorker, tracker: RunTracker): Promise<void> {
    switch (m.type) {
      case 'prepared':
        this.findings.begin(request.folder, m.paths);
        tracker.say(`${m.files} files under review, ${m.companions} companions discovered`);
        this.status.running('Step 0');
        return;
      case 'confirm': {
        const run = await vscode.window.showWarningMessage(
          `This review is estimated at ${m.calls} model calls (~${Math.round(m.inputTokens / 1000)}k input tokens).`,
          { modal: true, detail: `The threshold (${m.threshold}) is the skeptic.confirmThreshold setting.` },
          'Run Review',
        );
        worker.send(run === 'Run Review' ? { type: 'proceed', id: m.id } : { type: 'cancel' });
        return;
      }
      case 'event':
        return this.onEvent(m.event, tracker);
      case 'finding':
        tracker.findings++;
        this.findings.add(request.folder, m.diagnostic);
        return;
      case 'report': {
        const state: PanelState = { reportPath: m.path, cwd: request.folder, rerun: request };
        await this.context.workspaceState.update(LAST_REPORT, state);
        try {
          await this.report.show(state, m.markdown);
        } catch (err) {
          void this.notices.error(`Skeptic wrote ${m.path} but could not show it: ${(err as Error).message}`);
        }
        return;
      }
    }
  }

  private onEvent(e: RelayedEvent, tracker: RunTracker): void {
    switch (e.type) {
      case 'progress':
        tracker.say(e.message);
        this.status.running(e.message);
        return;
      case 'retry':
        this.log.appendLine(`retry ${e.attempt} in ${(e.delayMs / 1000).toFixed(1)}s: ${e.label} (${e.reason})`);
        return;
      case 'warning':
        this.log.appendLine(`warning: ${e.message}`);
        return;
      default:
        return;
    }
  }

  private async conclude(outcome: WorkerOutcome, t: RunTracker): Promise<void> {
    if (outcome.kind === 'skipped') {
      this.status.hide();
      return void this.notices.info(`Skeptic: ${outcome.reason.replace(/^SKIP: /, 'skipped, ')}.`);
    }
    if (outcome.kind === 'failed' || outcome.kind === 'crashed') {
      this.status.finished(t.findings, true);
      const prefix = outcome.kind === 'crashed' ? "Skeptic's review worker crashed" : 'Skeptic could not review';
      return void this.notices.error(`${prefix}: ${outcome.message}${t.findings ? ' Findings so far are kept.' : ''}`);
    }
    const summary: RunSummary | null = outcome.summary;
    if (summary) this.log.appendLine(`${summary.calls} model calls, cost ${describeCost(summary.costUsd)}`);
    for (const line of summary?.notReviewed ?? []) this.log.appendLine(`not reviewed: ${line}`);
    const stopped = summary?.stopped;
    const failedUnits = summary?.notReviewed.length ?? 0;
    this.status.finished(t.findings, Boolean(stopped) || failedUnits > 0);
    if (stopped && stopped !== 'cancelled') {
      if (/HTTP 401|HTTP 403/.test(stopped)) return offerToSetKey(`Skeptic: ${stopped}`, this.notices);
      return void this.notices.error(`Skeptic: ${stopped}`);
    }
    if (failedUnits > 0) void this.notices.warning(`Skeptic: ${failedUnits} units could not be reviewed; the report lists them.`);
  }
}

/** What one run has shown so far. */
class RunTracker {
  progress: vscode.Progress<{ message?: string }> | undefined;
  readonly pending: Array<Promise<void>> = [];
  findings = 0;

  say(message: string): void {
    this.progress?.report({ message: this.findings ? `${message} · ${this.findings} findings` : message });
  }
}
