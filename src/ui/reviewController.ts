/**
 * Starts reviews from what the user chose, runs each in a worker, and routes what comes back: one progress
 * line to the notification and the status bar, findings to the store (and so to Problems, the findings view
 * and the status bar) as they survive, the report to the webview, and a run log to the Skeptic output channel.
 */
import * as vscode from 'vscode';
import type { ReviewTarget, TargetScope } from '../app/choices';
import type { Connection } from '../app/connection';
import {
  ConfirmRun,
  FindingMade,
  Prepared,
  ReportWritten,
  RunEvent,
  ScopeChosen,
  type PlanAnswer,
  type RelayedEvent,
  type RunSummary,
} from '../app/protocol';
import type { Finding } from '../model/finding';
import { plural } from '../model/plural';
import { describeCost, describeEstimate } from '../model/pricing';
import { RunProgress } from '../model/progress';
import { apiKey, offerToSetKey } from './apiKey';
import { PROVIDER_SETTINGS } from '../app/contributions';
import { needsApiKey, ProviderError, resolveProvider, type Provider } from '../model/providers';
import type { Dismissals } from './dismiss';
import type { FindingStore } from './findingStore';
import type { Notices } from './notices';
import type { PanelState, ReportPanel } from './reportPanel';
import { EditorModelHost } from './editorModels';
import { readSettings } from './settings';
import type { ReviewStatus } from './statusBar';
import { ReviewWorker, type WorkerOutcome } from './workerHost';
import { stopAction } from './stopAction';

export const LAST_REPORT = 'skeptic.lastReport';

export class ReviewController implements vscode.Disposable {
  private running: ReviewWorker | undefined;
  readonly log = vscode.window.createOutputChannel('Skeptic', { log: true });

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly store: FindingStore,
    private readonly dismissals: Dismissals,
    private readonly status: ReviewStatus,
    private readonly report: ReportPanel,
    private readonly notices: Notices,
  ) {}

  /**
   * Runs one review; with several workspace folders, the caller runs one per folder. `confirmed`: the user already
   * agreed to its estimate (the language-model tool asked), so a large run does not ask again. The answer is how
   * it ended, or undefined when it never started.
   */
  async run(request: ReviewTarget, { confirmed = false } = {}): Promise<WorkerOutcome | undefined> {
    if (this.running) {
      const choice = await this.notices.warning('A Skeptic review is already running.', 'Cancel It');
      if (choice === 'Cancel It') this.cancel();
      return;
    }
    // Set API Key from the error below starts this review again once a key is saved.
    const resume = async () => void (await this.run(request));
    const settings = readSettings(request);
    // Bedrock and Vertex AI sign with their cloud's credentials (the worker resolves them): no key to ask for.
    let provider: Provider;
    try {
      provider = resolveProvider({ ...settings.choices, via: PROVIDER_SETTINGS }, process.env).provider;
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      this.log.error(err.message);
      return void this.offerCheck(`Skeptic: ${err.message}`, request.cwd);
    }
    const key = (await apiKey(this.context.secrets)) ?? '';
    if (!key && needsApiKey(provider))
      return void (await offerToSetKey(
        "Skeptic needs an Anthropic API key to review code (or choose Bedrock, Vertex AI or the editor's models in skeptic.provider).",
        this.notices,
        this.context.secrets,
        resume,
      ));
    const tracker = new RunTracker(request, needsApiKey(provider), confirmed);
    const worker = new ReviewWorker(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'worker.js').fsPath);
    const editorModels = new EditorModelHost(worker.connection, this.context.workspaceState);
    this.listen(worker.connection, request, tracker);
    this.running = worker;
    this.log.info(
      `review started: ${tracker.scope} in ${request.cwd}${request.mode === 'lenses' ? ' (Quick Review)' : ''}`,
    );
    this.status.running(tracker.progress.line());
    try {
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Skeptic', cancellable: true },
        async (progress, token) => {
          tracker.notification = progress;
          token.onCancellationRequested(() => worker.cancel());
          // The clock moves even when no event comes (a long call): redraw the line every second.
          const tick = setInterval(() => this.show(tracker), 1000);
          try {
            worker.start({
              choices: { ...request, ...settings.choices },
              severityMap: settings.severityMap,
              apiKey: key,
              dismissals: this.dismissals.own(),
            });
            const done = await worker.done;
            // Handlers still at work (showing the report, asking to confirm) finish before the run counts as over.
            for (const r of await Promise.allSettled(tracker.pending)) {
              if (r.status === 'rejected')
                this.log.error(r.reason instanceof Error ? (r.reason.stack ?? r.reason.message) : String(r.reason));
            }
            return done;
          } finally {
            clearInterval(tick);
          }
        },
      );
      await this.conclude(outcome, tracker, resume);
      return outcome;
    } finally {
      this.running = undefined;
      editorModels.dispose();
      worker.dispose();
      this.status.finished();
    }
  }

  /**
   * *Check Setup*: what a review in `folder` (default: the first workspace folder) would use, as `skeptic doctor`
   * prints it, in the log; where it can review, it offers the probe (one paid minimal call per model).
   */
  async checkSetup(folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, probe = false): Promise<void> {
    if (!folder) return void this.notices.info('Skeptic: open a folder to check its setup.');
    const target: ReviewTarget = { cwd: folder, scope: { kind: 'paths', paths: [] } };
    const { choices } = readSettings(target);
    const key = (await apiKey(this.context.secrets)) ?? '';
    const worker = new ReviewWorker(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'worker.js').fsPath);
    const editorModels = new EditorModelHost(worker.connection, this.context.workspaceState);
    try {
      worker.check({ choices: { ...target, ...choices }, apiKey: key, probe });
      const outcome = await worker.done;
      if (outcome.kind !== 'checked') {
        this.log.error(`setup check ${outcome.kind}: ${'message' in outcome ? outcome.message : ''}`);
        return void this.notices.error('Skeptic could not check its setup; the log says why.');
      }
      this.log.info(`setup check${probe ? ' with a probe of each model' : ''}:\n${outcome.lines.join('\n')}`);
      this.log.show(true);
      if (!outcome.ok)
        return void this.notices.error('Skeptic: this setup cannot review yet; the log says what to fix.');
      if (probe) return void this.notices.info('Skeptic: every model answered.');
      const choice = await this.notices.info(
        'Skeptic: the setup resolves (see the log). Probe each model with one paid call of one output token?',
        'Probe Models',
      );
      if (choice === 'Probe Models') await this.checkSetup(folder, true);
    } finally {
      editorModels.dispose();
      worker.dispose();
    }
  }

  /** What a review of `request` would cost (files, calls, dollars), with no model call; the answer says why not, if it cannot. */
  async plan(request: ReviewTarget): Promise<PlanAnswer> {
    const settings = readSettings(request);
    const worker = new ReviewWorker(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'worker.js').fsPath);
    try {
      return await worker.plan({
        choices: { ...request, ...settings.choices },
        severityMap: settings.severityMap,
        apiKey: (await apiKey(this.context.secrets)) ?? '',
        dismissals: this.dismissals.own(),
      });
    } finally {
      worker.dispose();
    }
  }

  cancel(): void {
    if (!this.running) return void this.notices.info('Skeptic: no review is running.');
    this.log.info('cancel requested');
    this.running.cancel();
  }

  /** The most recent report, reopened from its file; with `finding`, scrolled to it. */
  async showLastReport(finding?: Finding): Promise<void> {
    const last = this.context.workspaceState.get<PanelState>(LAST_REPORT);
    if (!last) return void this.notices.info('Skeptic: no report yet in this workspace.');
    await this.report.show({ ...last, ...(finding ? { reveal: { file: finding.file, line: finding.line } } : {}) });
  }

  dispose(): void {
    this.running?.dispose();
    this.log.dispose();
  }

  /** What the worker tells and asks during the run; handlers still at work are tracked until the run is over. */
  private listen(worker: Connection, request: ReviewTarget, tracker: RunTracker): void {
    const track = <T>(work: Promise<T>): Promise<T> => (tracker.pending.push(work.then(() => undefined)), work);
    worker.onNotification(ScopeChosen, (m) => {
      tracker.scope = describeScope(m.scope);
      this.log.info(m.line);
    });
    worker.onNotification(Prepared, (m) => {
      tracker.files = m.paths;
      this.store.begin(request.cwd, m.paths);
      this.log.info(
        `${plural(m.files, 'file')} under review, ${plural(m.companions, 'companion')} discovered, ${m.excluded} excluded`,
      );
    });
    worker.onRequest(ConfirmRun, (m) =>
      tracker.confirmed
        ? true
        : track(
            Promise.resolve(
              vscode.window.showWarningMessage(
                `This review is estimated at ${describeEstimate(m)}.`,
                { modal: true, detail: `The threshold (${m.threshold}) is the skeptic.confirmThreshold setting.` },
                'Run Review',
              ),
            ).then((run) => run === 'Run Review'),
          ),
    );
    worker.onNotification(RunEvent, (e) => this.onEvent(e, tracker));
    worker.onNotification(FindingMade, (m) => {
      this.store.add({ finding: m.finding, diagnostic: m.diagnostic });
      tracker.found++;
      this.show(tracker);
    });
    worker.onNotification(ReportWritten, (m) => void track(this.showReport(m.path, m.markdown, request)));
  }

  private async showReport(path: string, markdown: string, request: ReviewTarget): Promise<void> {
    const state: PanelState = { reportPath: path, cwd: request.cwd, rerun: request };
    await this.context.workspaceState.update(LAST_REPORT, state);
    this.log.info(`report: ${path}`);
    try {
      await this.report.show(state, markdown);
    } catch (err) {
      void this.notices.error(`Skeptic wrote ${path} but could not show it: ${(err as Error).message}`);
    }
  }

  private onEvent(e: RelayedEvent, tracker: RunTracker): void {
    if (tracker.progress.update(e)) this.show(tracker);
    switch (e.type) {
      case 'call': {
        const u = e.usage;
        this.log.debug(
          `call ${e.step} · ${e.label} · ${e.model}: ${u.input_tokens} in, ${u.output_tokens} out, cache ${u.cache_read_input_tokens} read / ${u.cache_creation_input_tokens} written · ${e.ms} ms`,
        );
        return;
      }
      case 'retry':
        this.log.warn(`retry ${e.attempt} in ${(e.delayMs / 1000).toFixed(1)}s: ${e.label} (${e.reason})`);
        return;
      case 'warning':
        this.log.warn(e.message);
        return;
      case 'setup':
        this.log.info(e.message);
        return;
      default:
        return;
    }
  }

  /** A setup failure's message, with the check one click away. Does not wait for the user. */
  private offerCheck(message: string, folder: string): void {
    void this.notices.error(message, 'Check Setup').then(async (choice) => {
      if (choice === 'Check Setup') await this.checkSetup(folder);
    });
  }

  private show(tracker: RunTracker): void {
    const line = tracker.progress.line();
    tracker.notification?.report({ message: tracker.found ? `${line} · ${plural(tracker.found, 'finding')}` : line });
    this.status.running(line);
  }

  private async conclude(outcome: WorkerOutcome, t: RunTracker, resume: () => Promise<void>): Promise<void> {
    if (outcome.kind === 'skipped') {
      this.log.info(`skipped: ${outcome.reason}`);
      return void this.notices.info(`Skeptic: skipped, ${outcome.why}.`);
    }
    if (outcome.kind === 'checked') return; // a review's worker never answers a check
    if (outcome.kind === 'failed' && outcome.code === 'setup') {
      this.log.error(`failed: ${outcome.message}`);
      return void this.offerCheck(`Skeptic could not review: ${outcome.message}`, t.request.cwd);
    }
    if (outcome.kind === 'failed' || outcome.kind === 'crashed') {
      this.log.error(`${outcome.kind}: ${outcome.message}`);
      const prefix = outcome.kind === 'crashed' ? "Skeptic's review worker crashed" : 'Skeptic could not review';
      return void this.notices.error(`${prefix}: ${outcome.message}${t.found ? ' Findings so far are kept.' : ''}`);
    }
    const summary: RunSummary | null = outcome.summary;
    if (!summary) return void this.log.info('not run: the estimate was not confirmed');
    const stop = summary.stop;
    const stopped = stop?.message;
    const failed = summary.notReviewed.length;
    this.store.finish({
      scope: t.scope,
      files: t.files.length,
      calls: summary.calls,
      cost: summary.costUsd,
      ...(summary.billing ? { billing: summary.billing } : {}),
      ms: Date.now() - t.startedAt,
      partial: Boolean(stop) || failed > 0,
    });
    for (const line of summary.notReviewed) this.log.warn(`not reviewed: ${line}`);
    this.log.info(
      `review finished: ${plural(summary.findings, 'finding')}${summary.suppressed ? ` (${summary.suppressed})` : ''}; ${plural(summary.calls, 'model call')}; cost ${describeCost(summary.costUsd, undefined, summary.billing)}${stopped ? `; stopped: ${stopped}` : ''}`,
    );
    // A refused key is fixed by another key; refused cloud credentials or a model the platform does not serve, by the check.
    const action = stopAction(stop, t);
    if (action === 'setKey') return offerToSetKey(`Skeptic: ${stopped}`, this.notices, this.context.secrets, resume);
    if (action === 'checkSetup') return void this.offerCheck(`Skeptic: ${stopped}`, t.request.cwd);
    if (action === 'error') return void this.notices.error(`Skeptic: ${stopped}`);
    if (failed > 0)
      void this.notices.warning(`Skeptic: ${plural(failed, 'unit')} could not be reviewed; the report lists them.`);
  }
}

/** What one run has shown so far. */
class RunTracker {
  notification: vscode.Progress<{ message?: string }> | undefined;
  readonly pending: Array<Promise<void>> = [];
  readonly progress: RunProgress;
  readonly startedAt = Date.now();
  /** How the scope reads in the log and the last run's summary; a detected scope replaces `auto`'s. */
  scope: string;
  /** The files under review (from Step 0). */
  files: string[] = [];
  found = 0;

  constructor(
    readonly request: ReviewTarget,
    /** Whether the provider takes an Anthropic key (a refused one is fixed with Set API Key). */
    readonly needsKey: boolean,
    /** The estimate was agreed to before the run: ConfirmRun is answered yes. */
    readonly confirmed: boolean,
  ) {
    this.progress = new RunProgress(request.mode === 'lenses' ? 'lenses' : 'staged', this.startedAt);
    this.scope = describeScope(request.scope);
  }
}

function describeScope(s: TargetScope): string {
  switch (s.kind) {
    case 'paths':
      return s.paths.join(', ');
    case 'branch':
      return `changes since ${s.base}`;
    case 'pr':
      return `PR #${s.number}`;
    case 'staged':
      return 'staged changes';
    case 'changes':
      return 'uncommitted changes';
    case 'auto':
      return 'the scope detected';
  }
}
