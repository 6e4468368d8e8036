import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Connection } from '../../src/app/connection';
import {
  CancelReview,
  CheckSetup,
  ConfirmRun,
  FindingMade,
  PlanReview,
  Prepared,
  ReportWritten,
  RunEvent,
  ScopeChosen,
  StartReview,
  type PlainDiagnostic,
  type RelayedEvent,
  type ReviewOutcome,
  type StartParams,
} from '../../src/app/protocol';
import type { Finding } from '../../src/model/finding';
import type { ScopeSpec } from '../../src/model/scope';
import { serveEditorFake, type EditorFake } from '../helpers/editorFake';
import { useFakeServer } from '../helpers/fakeServer';
import { FIXTURES, fixtureWorkspace, REPO } from '../helpers/cli';
import { TempRepo } from '../helpers/git-repo';

type Seen =
  | { type: 'scope'; scope: ScopeSpec; line: string }
  | { type: 'prepared'; paths: string[] }
  | { type: 'event'; event: RelayedEvent }
  | { type: 'finding'; finding: Finding; diagnostic: PlainDiagnostic }
  | { type: 'confirm'; calls: number; threshold: number; costUsd: number | null; billing?: 'editor' }
  | { type: 'report'; path: string; markdown: string }
  | ({ type: 'outcome' } & ReviewOutcome);

/**
 * dist/worker.js behind a Connection, as the extension starts it. `died` rejects as soon as the worker fails
 * (an uncaught error, or an exit before it was stopped) with its exit code and what it wrote to stderr, so
 * a test that waits on it fails at once instead of running into its timeout.
 */
function startWorker(): { connection: Connection; died: Promise<never>; stop: () => void } {
  const worker = new Worker(join(REPO, 'dist/worker.js'), { stderr: true });
  let stderr = '';
  worker.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let stopped = false;
  let broke: (err: Error) => void = () => undefined;
  const died = new Promise<never>((_, reject) => (broke = reject));
  died.catch(() => undefined); // a test that never waits on it is not failed by it
  const connection = new Connection(
    (m) => worker.postMessage(m),
    (problem) => broke(new Error(`the worker broke the protocol: ${problem}`)),
  );
  worker.on('message', (raw: unknown) => connection.receive(raw));
  worker.on('error', (err) => broke(new Error(`the worker failed: ${err.stack ?? err.message}\nstderr: ${stderr}`)));
  worker.on('exit', (code) => {
    if (!stopped)
      broke(new Error(`the worker exited (code ${code}) before it answered; stderr: ${stderr || '(none)'}`));
  });
  const stop = () => {
    stopped = true;
    void worker.terminate();
  };
  return { connection, died, stop };
}

/** Runs a review in the worker and collects what it says until it answers the start. */
async function runWorker(
  start: StartParams,
  host: { confirm?: (m: Seen & { type: 'confirm' }, worker: Connection) => boolean | Promise<boolean> } & {
    onSeen?: (m: Seen, worker: Connection) => void;
    /** More of the host's handlers (the editor's models), registered before the start. */
    serve?: (worker: Connection) => void;
  } = {},
): Promise<Seen[]> {
  const { connection, died, stop } = startWorker();
  host.serve?.(connection);
  const seen: Seen[] = [];
  const see = (m: Seen) => (seen.push(m), host.onSeen?.(m, connection));
  connection.onNotification(ScopeChosen, (m) => see({ type: 'scope', ...m }));
  connection.onNotification(Prepared, (m) => see({ type: 'prepared', paths: m.paths }));
  connection.onNotification(RunEvent, (event) => see({ type: 'event', event }));
  connection.onNotification(FindingMade, (m) => see({ type: 'finding', ...m }));
  connection.onNotification(ReportWritten, (m) => see({ type: 'report', ...m }));
  connection.onRequest(ConfirmRun, (m) => {
    const asked = { type: 'confirm' as const, ...m };
    see(asked);
    return host.confirm ? host.confirm(asked, connection) : true;
  });
  try {
    const outcome = await Promise.race([connection.sendRequest(StartReview, start), died]);
    seen.push({ type: 'outcome', ...outcome });
    return seen;
  } finally {
    stop();
  }
}

describe('the review worker thread', function () {
  this.timeout(60_000);
  const fake = useFakeServer();

  const start = (cwd: string, confirmThreshold = 1_000_000): StartParams => ({
    choices: {
      cwd,
      scope: { kind: 'paths', paths: ['shop'] },
      reportFolder: '',
      maxConcurrency: 4,
      requestTimeout: 30,
      maxAttempts: 3,
      baseUrl: fake.server.url,
      confirmThreshold,
      cacheResults: false,
    },
    severityMap: {},
    apiKey: 'worker-key',
  });

  it('tells the setup line, prepared, progress, findings and the report, then answers finished, in that order', async () => {
    const cwd = await fixtureWorkspace('shop');
    const seen = await runWorker(start(cwd));
    const kinds = seen.map((m) => (m.type === 'event' ? `event:${m.event.type}` : m.type));
    assert.deepEqual(kinds.slice(0, 2), ['event:setup', 'prepared']);
    assert.deepEqual(kinds.slice(-2), ['report', 'outcome']);
    assert.ok(kinds.includes('event:progress'));
    const findings = seen.flatMap((m) => (m.type === 'finding' ? [m] : []));
    assert.equal(findings.length, 7);
    const finished = seen.at(-1)!;
    assert.ok(finished.type === 'outcome' && finished.kind === 'finished' && finished.summary);
    assert.equal(finished.summary.findings, 7);
    assert.ok(finished.summary.calls > 0);
    // Places come clamped, 0-based, for the Problems panel: the host reads no source file.
    for (const { finding, diagnostic } of findings) assert.equal(diagnostic.at.line, finding.line - 1);
    const report = seen.find((m) => m.type === 'report');
    assert.ok(report && report.type === 'report');
    // The extension's reports go to Skeptic's own folder, which keeps them out of git.
    assert.equal(report.path, join(cwd, '.skeptic/reports/code-review-shop.md'));
    assert.match(readFileSync(join(cwd, '.skeptic/.gitignore'), 'utf8'), /^\*$/m);
    assert.match(report.markdown, /^# Code Review: shop/);
  });

  it("reviews on the editor's models (vscode-lm) through the host, finding what the API finds", async () => {
    const direct = await runWorker(start(await fixtureWorkspace('shop')));
    const apiCalls = fake.server.requests.length;
    fake.server.reset();
    const cwd = await fixtureWorkspace('shop');
    let editor: EditorFake | undefined;
    const { baseUrl: _, ...choices } = start(cwd).choices;
    const seen = await runWorker(
      { ...start(cwd), apiKey: '', choices: { ...choices, provider: 'vscode-lm' } },
      { serve: (worker) => (editor = serveEditorFake(worker, fake.server.url)) },
    );
    const found = (s: Seen[]) =>
      s
        .flatMap((m) => (m.type === 'finding' ? [`${m.finding.fingerprint} ${m.finding.file}:${m.finding.line}`] : []))
        .sort();
    assert.equal(found(seen).length, 7);
    assert.deepEqual(found(seen), found(direct));
    const setup = seen.find((m) => m.type === 'event' && m.event.type === 'setup');
    assert.ok(setup?.type === 'event' && setup.event.type === 'setup');
    assert.match(setup.event.message, /^Provider: vscode-lm \(the editor's language models/);
    // Every call went through the host, none with a prompt-cache breakpoint or an output format.
    assert.ok(editor && editor.asked.length > 0);
    assert.equal(editor.asked.length, fake.server.requests.length);
    assert.ok(fake.server.requests.every((r) => !/cache_control|output_config/.test(JSON.stringify(r.body))));
    assert.ok(apiCalls > 0);
    const outcome = seen.at(-1)!;
    assert.ok(outcome.type === 'outcome' && outcome.kind === 'finished' && outcome.summary);
    assert.equal(outcome.summary.calls, editor.asked.length);
  });

  it("vscode-lm: the editor's plan bills the calls, so every cost is null and said so, the calls counted", async () => {
    const cwd = await fixtureWorkspace('shop');
    const { baseUrl: _, ...choices } = start(cwd, 1).choices;
    const seen = await runWorker(
      { ...start(cwd), apiKey: '', choices: { ...choices, provider: 'vscode-lm' } },
      { serve: (worker) => serveEditorFake(worker, fake.server.url) },
    );
    // The question before the run: calls and tokens, no dollars.
    const asked = seen.find((m) => m.type === 'confirm');
    assert.ok(asked?.type === 'confirm' && asked.calls > 0);
    assert.equal(asked.costUsd, null);
    assert.equal(asked.billing, 'editor');
    // Each call's running totals, which the progress line shows.
    const calls = seen.flatMap((m) => (m.type === 'event' && m.event.type === 'call' ? [m.event] : []));
    assert.ok(calls.length > 0 && calls.every((c) => c.usage.cost_usd === null && c.totals.billing === 'editor'));
    const outcome = seen.at(-1)!;
    assert.ok(outcome.type === 'outcome' && outcome.kind === 'finished' && outcome.summary);
    assert.equal(outcome.summary.calls, calls.length);
    assert.equal(outcome.summary.costUsd, null);
    assert.equal(outcome.summary.billing, 'editor');
    assert.match(outcome.summary.lines.join('\n'), /model calls, cost billed by the editor's plan/);
    const report = seen.find((m) => m.type === 'report');
    assert.ok(report?.type === 'report');
    assert.match(report.markdown, /cost billed by the editor's plan/);
    assert.doesNotMatch(report.markdown, /\$\d|price table/);
  });

  it("vscode-lm: a dollar ceiling cannot hold the editor's plan: refused before any call, naming the way to bound calls", async () => {
    const cwd = await fixtureWorkspace('shop');
    const { baseUrl: _, ...choices } = start(cwd).choices;
    let editor: EditorFake | undefined;
    const seen = await runWorker(
      { ...start(cwd), apiKey: '', choices: { ...choices, provider: 'vscode-lm', maxCostUsd: 2 } },
      { serve: (worker) => (editor = serveEditorFake(worker, fake.server.url)) },
    );
    const outcome = seen.at(-1)!;
    assert.ok(outcome.type === 'outcome' && outcome.kind === 'failed', JSON.stringify(outcome));
    assert.equal(outcome.setup, true);
    assert.match(
      outcome.message,
      /--max-cost \(skeptic\.maxCostUsd\) is a dollar ceiling.*billed by the editor's plan/,
    );
    assert.match(outcome.message, /nothing was sent.*--max-calls \(skeptic\.maxCalls\)/);
    assert.equal(editor!.asked.length, 0);
    assert.equal(fake.server.requests.length, 0);
  });

  it('plans a review with no model call: files, calls and dollars (the language-model tool asks with it)', async () => {
    const cwd = await fixtureWorkspace('shop');
    const { connection, died, stop } = startWorker();
    try {
      const plan = await Promise.race([connection.sendRequest(PlanReview, start(cwd)), died]);
      assert.ok(plan.kind === 'planned', JSON.stringify(plan));
      assert.equal(plan.files, 4);
      assert.ok(plan.calls > 0 && plan.inputTokens > 0 && plan.costUsd! > 0);
      assert.equal(fake.server.requests.length, 0);
      const bad = await Promise.race([connection.sendRequest(PlanReview, start('/no/such/folder')), died]);
      assert.equal(bad.kind, 'failed');
    } finally {
      stop();
    }
  });

  it("plans a vscode-lm review with calls and no dollars (the tool's question before a run the editor's plan bills)", async () => {
    const cwd = await fixtureWorkspace('shop');
    const { connection, died, stop } = startWorker();
    try {
      const { baseUrl: _, ...choices } = start(cwd).choices;
      const plan = await Promise.race([
        connection.sendRequest(PlanReview, {
          ...start(cwd),
          apiKey: '',
          choices: { ...choices, provider: 'vscode-lm' },
        }),
        died,
      ]);
      assert.ok(plan.kind === 'planned', JSON.stringify(plan));
      assert.ok(plan.calls > 0 && plan.inputTokens > 0);
      assert.equal(plan.costUsd, null);
      assert.equal(plan.billing, 'editor');
    } finally {
      stop();
    }
  });

  it('detects an auto scope first and says which (Review (Auto)): here the uncommitted change', async () => {
    const repo = new TempRepo();
    cpSync(join(FIXTURES, 'shop'), join(repo.dir, 'shop'), { recursive: true });
    repo.commit('shop').write('shop/price.ts', `${readFileSync(join(FIXTURES, 'shop/price.ts'), 'utf8')}\n// edited\n`);
    const seen = await runWorker({
      ...start(repo.dir),
      choices: { ...start(repo.dir).choices, scope: { kind: 'auto' } },
    });
    const first = seen[0];
    assert.ok(first?.type === 'scope', `first message: ${first?.type}`);
    assert.deepEqual(first.scope, { kind: 'changes' });
    assert.match(first.line, /^Scope: uncommitted changes \(auto: .*1 file changed/);
    const prepared = seen.find((m) => m.type === 'prepared');
    assert.ok(prepared?.type === 'prepared');
    assert.deepEqual(prepared.paths, ['shop/price.ts']);
    assert.equal(seen.at(-1)?.type, 'outcome');
  });

  it('asks before a run over the threshold, and runs nothing when the host says no', async () => {
    const cwd = await fixtureWorkspace('shop');
    const seen = await runWorker(start(cwd, 1), { confirm: () => false });
    const confirm = seen.find((m) => m.type === 'confirm');
    assert.ok(confirm && confirm.type === 'confirm' && confirm.calls > 1);
    assert.equal(confirm.threshold, 1);
    assert.deepEqual(seen.at(-1), { type: 'outcome', kind: 'finished', summary: null });
    assert.equal(fake.server.requests.length, 0);
  });

  it('a cancel while the host is asking declines the run', async () => {
    const cwd = await fixtureWorkspace('shop');
    const seen = await runWorker(start(cwd, 1), {
      // The question stays open: only the cancel can end it.
      confirm: (_m, worker) => (worker.sendNotification(CancelReview, {}), new Promise<boolean>(() => undefined)),
    });
    assert.deepEqual(seen.at(-1), { type: 'outcome', kind: 'finished', summary: null });
    assert.equal(fake.server.requests.length, 0);
  });

  it('runs once the host answers yes', async () => {
    const cwd = await fixtureWorkspace('shop');
    let callsWhenAsked = -1;
    const seen = await runWorker(start(cwd, 1), {
      confirm: () => ((callsWhenAsked = fake.server.requests.length), true),
    });
    assert.equal(callsWhenAsked, 0, 'nothing is asked of the model before the answer');
    const outcome = seen.at(-1)!;
    assert.ok(outcome.type === 'outcome' && outcome.kind === 'finished' && outcome.summary);
    assert.ok(fake.server.requests.length > 0);
  });

  it('answers a start it cannot run with a setup failure, not a crash', async () => {
    const seen = await runWorker({
      ...start('/no/such/folder'),
      choices: { cwd: '/no/such/folder', scope: { kind: 'paths', paths: ['x'] } },
    });
    const outcome = seen.at(-1)!;
    assert.ok(outcome.type === 'outcome' && outcome.kind === 'failed', JSON.stringify(outcome));
    assert.equal(outcome.setup, true);
  });

  it('cancels in-flight calls and keeps the findings already made', async () => {
    const cwd = await fixtureWorkspace('shop');
    // price.ts finishes quickly; cart.ts's calls hang long enough to be cancelled.
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'slow', ms: 20_000, times: -1, match: { file: 'shop/cart.ts', record: 'PerFunctionReview' } }],
    });
    let cancelled = false;
    const seen = await runWorker(start(cwd), {
      onSeen: (m, worker) => {
        const priceDone = m.type === 'finding' && m.finding.file === 'shop/price.ts';
        if (priceDone && !cancelled) {
          cancelled = true;
          worker.sendNotification(CancelReview, {});
        }
      },
    });
    fake.server.setScenario(fake.scenario);
    assert.ok(cancelled);
    const finished = seen.at(-1)!;
    assert.ok(finished.type === 'outcome' && finished.kind === 'finished' && finished.summary);
    assert.equal(finished.summary.stopped, 'cancelled');
    const findings = seen.flatMap((m) => (m.type === 'finding' ? [m.finding] : []));
    assert.ok(
      findings.some((f) => f.file === 'shop/price.ts'),
      'findings made before the cancel are kept',
    );
    assert.ok(!findings.some((f) => f.file === 'shop/cart.ts' && f.source !== 'cross_file'));
    assert.ok(
      finished.summary.notReviewed.some((line) => line.startsWith('shop/cart.ts ')),
      'cart.ts is listed as not reviewed',
    );
    assert.ok(
      seen.some((m) => m.type === 'report'),
      'a partial report is written',
    );
    assert.ok(
      fake.server.requests.some((r) => r.record === 'PerFunctionReview' && r.status === null),
      'the hanging calls were aborted, not awaited',
    );
  });

  describe('Check Setup (skeptic doctor in the extension)', () => {
    const answer = (settings: Record<string, unknown>, probe = false) => {
      const { connection, died, stop } = startWorker();
      const choices = { cwd: REPO, scope: { kind: 'paths' as const, paths: [] }, ...settings };
      return Promise.race([connection.sendRequest(CheckSetup, { choices, apiKey: '', probe }), died]).finally(stop);
    };

    it('answers with what skeptic doctor prints, and makes no call', async () => {
      const { lines, ok } = await answer({ provider: 'compatible', baseUrl: `${fake.server.url}/limited` });
      assert.ok(ok, lines.join('\n'));
      assert.match(
        lines[0]!,
        /^Provider: +compatible: an Anthropic-compatible server \(chosen by skeptic\.provider\)$/,
      );
      assert.ok(lines.some((l) => /^Endpoint: +http:\/\/127\.0\.0\.1:\d+\/limited \(skeptic\.baseUrl\)$/.test(l)));
      assert.ok(lines.some((l) => /^ {2}prompt cache +no +/.test(l)));
      assert.equal(fake.server.requests.length, 0);
    });

    it('with the probe, one call of one output token per model, each line saying how it went', async () => {
      const { lines, ok } = await answer({ provider: 'compatible', baseUrl: `${fake.server.url}/limited` }, true);
      assert.ok(ok, lines.join('\n'));
      assert.ok(lines.includes('Probe:'));
      assert.equal(lines.filter((l) => /^ {2}claude-\S+: ok \(\d+ ms\)$/.test(l)).length, 2);
      assert.deepEqual(
        fake.server.requests.map((r) => (r.body as { max_tokens: number }).max_tokens),
        [1, 1],
      );
    });

    it('a setting that cannot work, or no key for the Anthropic API, is a problem line with the fix', async () => {
      const bad = await answer({ provider: 'azure' });
      assert.equal(bad.ok, false);
      assert.deepEqual(bad.lines, [
        'Problem:     skeptic.provider must be one of anthropic, bedrock, vertex, compatible, vscode-lm; got "azure"',
      ]);
      const keyless = await answer({ baseUrl: fake.server.url });
      assert.equal(keyless.ok, false);
      assert.match(keyless.lines.at(-1)!, /^Problem: +no Anthropic API key: run Skeptic: Set API Key/);
      assert.equal(fake.server.requests.length, 0);
    });
  });
});
