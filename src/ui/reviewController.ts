/**
 * Starts reviews from what the user chose, runs each in a worker, and routes what comes back: progress to
 * the notification and status bar, findings to the Problems panel as they survive, the report to the webview.
 */
import { describeCost } from '../model/pricing';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ReviewJobInput } from '../app/job';
import type { WorkerMessage } from '../app/workerMessages';
import type { ReviewEvent } from '../model/events';
import { LENS_ROLES } from '../model/reviewers';
import { resolveStepModels, STAGED_STEPS, type StagedStep } from '../model/models';
import { apiKey, offerToSetKey } from './apiKey';
import type { FindingsView } from './diagnostics';
import type { ReportPanel, PanelState } from './reportPanel';
import type { RerunRequest } from './requests';
import type { Notices } from './notices';
import { readSettings, type UiSettings } from './settings';
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
  async run(request: RerunRequest): Promise<void> {
    if (this.running) {
      const choice = await this.notices.warning('A Skeptic review is already running.', 'Cancel It');
      if (choice === 'Cancel It') this.cancel();
      return;
    }
    const key = await apiKey(this.context.secrets);
    if (!key) return offerToSetKey('Skeptic needs an Anthropic API key to review code.', this.notices);
    const settings = readSettings(vscode.Uri.file(request.folder));
    const job = this.job(request, settings, key);
    const tracker = new RunTracker();
    const worker: ReviewWorker = new ReviewWorker(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'worker.js').fsPath, (m) => tracker.pending.push(this.onMessage(m, request, settings, worker, tracker)));
    this.running = worker;
    try {
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Skeptic', cancellable: true },
        async (progress, token) => {
          tracker.progress = progress;
          token.onCancellationRequested(() => worker.cancel());
          worker.send({ type: 'start', job, confirmOver: settings.confirmThreshold, ...(settings.reportFolder ? { reportDir: join(request.folder, settings.reportFolder) } : {}) });
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

  private job(request: RerunRequest, s: UiSettings, key: string): ReviewJobInput {
    const perStep = Object.fromEntries(Object.entries(s.modelPerStep).filter(([step, id]) => STAGED_STEPS.includes(step as StagedStep) && typeof id === 'string' && id));
    return {
      cwd: request.folder,
      scope: request.scope,
      excludes: s.excludes,
      contextFiles: s.contextFiles,
      includeUntracked: s.includeUntracked,
      force: false,
      models: resolveStepModels(s.model || undefined, perStep),
      ...(request.mode === 'lenses' ? { mode: 'lenses' as const, lens: this.lensOptions(s) } : {}),
      concurrency: Math.min(64, Math.max(1, Math.floor(s.maxConcurrency) || 8)),
      timeoutMs: Math.max(1, Math.floor(s.requestTimeout) || 300) * 1000,
      maxAttempts: Math.max(1, Math.floor(s.maxAttempts) || 6),
      ...(s.effort ? { effort: s.effort } : {}),
      apiKey: key,
      ...(s.baseUrl ? { baseURL: s.baseUrl } : {}),
      ...(Object.keys(s.prices).length ? { prices: s.prices } : {}),
      ...(s.cacheResults ? { cacheDir: vscode.Uri.joinPath(this.context.globalStorageUri, 'results').fsPath } : {}),
    };
  }

  /** Quick Review: the reviewer models from settings (a single model setting overrides them all, as in the CLI). */
  private lensOptions(s: UiSettings): NonNullable<ReviewJobInput['lens']> {
    const roles = new Set<string>(LENS_ROLES);
    const models = s.model ? Object.fromEntries(LENS_ROLES.map((r) => [r, s.model])) : Object.fromEntries(Object.entries(s.reviewerModels).filter(([role, id]) => roles.has(role) && typeof id === 'string' && id));
    return { fullFanout: s.fullFanout, models, repositories: [] };
  }

  private async onMessage(m: WorkerMessage, request: RerunRequest, settings: UiSettings, worker: ReviewWorker, tracker: RunTracker): Promise<void> {
    switch (m.type) {
      case 'prepared':
        this.findings.begin(request.folder, m.paths);
        tracker.say(`${m.files} files under review, ${m.companions} companions discovered`);
        this.status.running('Step 0');
        return;
      case 'confirm': {
        const run = await vscode.window.showWarningMessage(
          `This review is estimated at ${m.calls} model calls (~${Math.round(m.inputTokens / 1000)}k input tokens).`,
          { modal: true, detail: 'The threshold is the skeptic.confirmThreshold setting.' },
          'Run Review',
        );
        worker.send({ type: run === 'Run Review' ? 'proceed' : 'cancel' });
        return;
      }
      case 'event':
        return this.onEvent(m.event, request, settings, tracker);
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

  private onEvent(e: ReviewEvent, request: RerunRequest, settings: UiSettings, tracker: RunTracker): void {
    switch (e.type) {
      case 'progress':
        tracker.say(e.message);
        this.status.running(e.message);
        return;
      case 'finding':
        tracker.findings++;
        this.findings.add(request.folder, e.finding, settings.severityMap);
        return;
      case 'retry':
        this.log.appendLine(`retry ${e.attempt} in ${(e.delayMs / 1000).toFixed(1)}s: ${e.label} (${e.reason})`);
        return;
      case 'warning':
        this.log.appendLine(`warning: ${e.message}`);
        return;
      case 'done':
        this.log.appendLine(`${e.result.usage.calls} model calls, cost ${describeCost(e.result.usage.cost_usd)}`);
        tracker.failedUnits = e.result.failed.length;
        tracker.stopped = e.result.stopped;
        for (const u of e.result.failed) this.log.appendLine(`not reviewed: ${u.file ?? 'synthesis'} ${u.step} ${u.unit}: ${u.reason}`);
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
    this.status.finished(t.findings, Boolean(t.stopped) || t.failedUnits > 0);
    if (t.stopped && t.stopped !== 'cancelled') {
      if (/HTTP 401|HTTP 403/.test(t.stopped)) return offerToSetKey(`Skeptic: ${t.stopped}`, this.notices);
      return void this.notices.error(`Skeptic: ${t.stopped}`);
    }
    if (t.failedUnits > 0) void this.notices.warning(`Skeptic: ${t.failedUnits} units could not be reviewed; the report lists them.`);
  }
}

/** What one run has shown so far. */
class RunTracker {
  progress: vscode.Progress<{ message?: string }> | undefined;
  readonly pending: Array<Promise<void>> = [];
  findings = 0;
  failedUnits = 0;
  stopped: string | undefined;

  say(message: string): void {
    this.progress?.report({ message: this.findings ? `${message} · ${this.findings} findings` : message });
  }
}
