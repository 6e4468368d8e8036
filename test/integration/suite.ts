/**
 * Skeptic in a real extension host, against the project's fake Messages API (started here, in-process):
 * commands, diagnostics from a review, a diff review, cancel, a missing key, the report webview.
 * The workspace is a folder holding a copy of test/fixtures/shop (the launchers provide it).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/app/contributions';
import type { SkepticApi } from '../../src/extension';
import type { Scenario } from '../fake-anthropic/scenario';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { withTimeout } from './wait';

const REPO = join(__dirname, '../../..');
const EXTENSION_ID = 'skeptic-dev.skeptic';

describe('Skeptic in VS Code', () => {
  let server: FakeAnthropic;
  let scenario: Scenario;
  let api: SkepticApi;
  let folder: string;
  const uri = (rel: string) => vscode.Uri.file(join(folder, rel));
  /** Two uncommitted edits, in Cart.total and parsePrice: enough changed lines to pass the gate check. */
  const editShop = () => {
    const edit = (rel: string, lines: Record<number, string>) => {
      const text = readFileSync(join(folder, rel), 'utf8').split('\n');
      for (const [n, line] of Object.entries(lines)) text[Number(n) - 1] = line;
      writeFileSync(join(folder, rel), text.join('\n'));
    };
    edit('shop/cart.ts', {
      17: '    for (let i = 0; i <= this.items.length; i += 1) {',
      18: '      sum += Math.round(this.items[i].price * this.items[i].qty * 100) / 100; // cents',
    });
    edit('shop/price.ts', { 11: "  return Number(text.replace('$', '').trim());" });
  };
  const diagnostics = (rel: string) => vscode.languages.getDiagnostics(uri(rel)).filter((d) => d.source === 'Skeptic');
  // The quick fixes offered on a diagnostic's line; the workbench answers only for a document it has loaded.
  const actionsOn = async (rel: string, d: vscode.Diagnostic) => {
    await vscode.workspace.openTextDocument(uri(rel));
    return vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri(rel),
      new vscode.Range(d.range.start.line, 0, d.range.start.line, 1),
    );
  };
  const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? String(d.code.value) : String(d.code));
  /** A test's own review of the whole fixture, so that no test needs another's findings (each runs alone). */
  const reviewShop = () => vscode.commands.executeCommand(COMMANDS.reviewFiles, uri('shop'), [uri('shop')]);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: folder, encoding: 'utf8' });

  before(async () => {
    folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    scenario = JSON.parse(readFileSync(join(REPO, 'test/fixtures/shop.scenario.json'), 'utf8')) as Scenario;
    server = await startFakeAnthropic({ scenario });
    // This suite's own fake server, whatever endpoint a launcher configured: the tests read its request log.
    await vscode.workspace.getConfiguration('skeptic').update('baseUrl', server.url, vscode.ConfigurationTarget.Global);
    // Each test plants its own faults for the same files: answers kept from an earlier test would hide them.
    await vscode.workspace.getConfiguration('skeptic').update('cacheResults', false, vscode.ConfigurationTarget.Global);
    process.env.ANTHROPIC_API_KEY = 'integration-key';
    try {
      git('rev-parse', '--git-dir');
    } catch {
      git('init', '-q');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fixture');
    }
    const started = performance.now();
    api = (await vscode.extensions.getExtension<SkepticApi>(EXTENSION_ID)!.activate())!;
    // A figure for the record (not asserted): what activation costs the extension host.
    console.log(`skeptic activation took ${(performance.now() - started).toFixed(1)} ms`);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('skeptic').update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace
      .getConfiguration('skeptic')
      .update('cacheResults', undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });
  beforeEach(() => {
    server.setScenario(scenario);
    server.reset();
  });

  it('registers every command', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of Object.values(COMMANDS)) assert.ok(registered.has(id), id);
  });

  it('"Review These Files" fills the Problems panel with the surviving findings', async () => {
    await reviewShop();
    const cart = diagnostics('shop/cart.ts');
    const at = (ds: vscode.Diagnostic[]) =>
      ds.map((d) => `${d.range.start.line} ${codeOf(d)} ${vscode.DiagnosticSeverity[d.severity]}`).sort();
    assert.deepEqual(at(cart), ['11 A2 Information', '16 A1 Error', '31 A6 Information']);
    assert.deepEqual(at(diagnostics('shop/price.ts')), [
      '10 A1 Warning',
      '2 G1 Warning',
      '5 F1 Information',
      '6 A1 Warning',
    ]);
    const g1 = diagnostics('shop/price.ts').find((d) => codeOf(d) === 'G1')!;
    assert.equal(g1.relatedInformation?.[0]?.location.uri.fsPath, uri('shop/cart.ts').fsPath);
    assert.equal(g1.relatedInformation?.[0]?.location.range.start.line, 17);
    assert.match(cart.find((d) => codeOf(d) === 'A1')!.message, /^Loop while i < this\.items\.length\. \(/);
  });

  it('opens the report in a webview', async () => {
    // Its own review, with no panel open before it: the tab can only come from this run.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The tab model reaches the extension host a moment after the panel is created.
    const reportTab = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('skeptic.report'));
    const tabsChange = vscode.window.tabGroups.onDidChangeTabs;
    await until(tabsChange, () => reportTab() === undefined, 'the earlier report tab to close');
    await vscode.commands.executeCommand(COMMANDS.reviewFiles, uri('shop/price.ts'), [uri('shop/price.ts')]);
    await until(tabsChange, () => reportTab() !== undefined, 'the report tab');
    assert.match(reportTab()!.label, /^Skeptic: code-review-price(-v\d+)?\.md$/);
  });

  it('explains a finding: the code links to its rule page, the hover names rule, priority, confidence and verdict', async () => {
    await reviewShop();
    const a1 = diagnostics('shop/cart.ts').find((d) => codeOf(d) === 'A1')!;
    assert.ok(
      typeof a1.code === 'object' && a1.code.target.path.endsWith('/media/rules/a1.md'),
      'the code links to the shipped rule page',
    );
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      uri('shop/cart.ts'),
      new vscode.Position(16, 6),
    );
    const text = hovers
      .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')))
      .join('\n');
    assert.match(text, /A1 · Bugs/);
    assert.match(text, /must fix, high confidence/);
    assert.match(text, /Challenger:\* \S/);
  });

  it('offers Dismiss, Copy Fix Prompt, Fix with Chat (only with a chat view) and Show in Report on a finding', async () => {
    await reviewShop();
    const a1 = diagnostics('shop/cart.ts').find((d) => codeOf(d) === 'A1')!;
    const actions = await actionsOn('shop/cart.ts', a1);
    const titles = actions.map((a) => a.title).filter((t) => t.startsWith('Skeptic'));
    const chat = (await vscode.commands.getCommands(true)).includes('workbench.action.chat.open');
    assert.deepEqual(titles, [
      'Skeptic: Dismiss A1…',
      'Skeptic: Copy Fix Prompt',
      ...(chat ? ['Skeptic: Fix with Chat'] : []),
      'Skeptic: Show in Report',
    ]);
    const copy = actions.find((a) => a.title === 'Skeptic: Copy Fix Prompt')!;
    const prompt = await vscode.commands.executeCommand<string>(copy.command!.command, ...copy.command!.arguments!);
    assert.match(prompt, /^Fix this code review finding in shop\/cart\.ts:17 \(in Cart\.total\)\./);
    assert.match(prompt, /What to do: Loop while i < this\.items\.length\./);
    assert.match(prompt, /for \(let i = 0; i <= this\.items\.length; i\+\+\)/, "the function's code is quoted");
    assert.equal(await vscode.env.clipboard.readText(), prompt);
  });

  it('the findings view counts by file and priority, and filters by priority', async () => {
    await reviewShop();
    const view = api.findingsView();
    assert.ok(
      view.some((l) => /^Last run: shop — \d+ files · \d+ calls · \$\d+\.\d\d · \d+:\d\d$/.test(l)),
      view.join('\n'),
    );
    assert.ok(view.includes('shop/cart.ts — 3 findings'), view.join('\n'));
    assert.ok(view.includes('  Must fix — 1'), view.join('\n'));
    assert.ok(view.includes('shop/price.ts — 4 findings'), view.join('\n'));
    await vscode.commands.executeCommand(COMMANDS.filterFindings, ['must_fix']);
    try {
      assert.deepEqual(
        api.findingsView().filter((l) => !l.startsWith(' ') && !l.startsWith('Last run')),
        ['shop/cart.ts — 1 finding'],
      );
    } finally {
      await vscode.commands.executeCommand(COMMANDS.filterFindings, ['must_fix', 'should_fix', 'nice_to_have']);
    }
  });

  it('a dismissed finding leaves at once and stays gone in the next review; the team file records it for the challenger', async () => {
    const teamFile = join(folder, '.skeptic/dismissed.json');
    await reviewShop();
    const a1 = diagnostics('shop/cart.ts').find((d) => codeOf(d) === 'A1')!;
    const dismiss = (await actionsOn('shop/cart.ts', a1)).find((a) => a.title.startsWith('Skeptic: Dismiss'))!;
    try {
      const done = await vscode.commands.executeCommand<boolean>(
        dismiss.command!.command,
        ...dismiss.command!.arguments!,
        { reason: 'false_positive', note: 'the loop bound is checked by the caller', scope: 'team' },
      );
      assert.equal(done, true);
      assert.ok(!diagnostics('shop/cart.ts').some((d) => codeOf(d) === 'A1'), 'gone from Problems at once');
      const team = JSON.parse(readFileSync(teamFile, 'utf8')) as {
        dismissed: Array<{ rule_id: string; file: string; reason: string; code: string }>;
      };
      assert.deepEqual(
        team.dismissed.map((d) => [d.rule_id, d.file, d.reason]),
        [['A1', 'shop/cart.ts', 'false_positive']],
      );
      assert.match(team.dismissed[0]!.code, /^for \(let i = 0; i <= this\.items\.length/);
      // Again, the user's own way: the A6 finding, for this workspace only.
      const a6 = diagnostics('shop/cart.ts').find((d) => codeOf(d) === 'A6')!;
      const dismissA6 = (await actionsOn('shop/cart.ts', a6)).find((a) => a.title.startsWith('Skeptic: Dismiss'))!;
      await vscode.commands.executeCommand(dismissA6.command!.command, ...dismissA6.command!.arguments!, {
        reason: 'wont_fix',
        note: '',
        scope: 'user',
      });

      server.reset();
      await reviewShop();
      assert.deepEqual(
        diagnostics('shop/cart.ts').map((d) => codeOf(d)),
        ['A2'],
        'both dismissed findings stay gone',
      );
      const challenge = server.requests.find((r) => r.record === 'ChallengeResult' && r.file === 'shop/cart.ts');
      assert.match(
        JSON.stringify(challenge?.body),
        /team_dismissed.*the loop bound is checked by the caller/,
        'the reasoned dismissal reaches the challenger',
      );
      assert.ok(!api.findingsView().some((l) => /Loop while/.test(l)));
    } finally {
      rmSync(join(folder, '.skeptic'), { recursive: true, force: true });
    }
  });

  it('"Review Uncommitted Changes" reports only on changed lines', async () => {
    editShop();
    try {
      await vscode.commands.executeCommand(COMMANDS.reviewChanges, { rootUri: vscode.Uri.file(folder) });
      assert.deepEqual(
        diagnostics('shop/cart.ts').map((d) => `${d.range.start.line} ${codeOf(d)}`),
        ['16 A1'],
      );
      assert.deepEqual(
        diagnostics('shop/price.ts')
          .map((d) => `${d.range.start.line} ${codeOf(d)}`)
          .sort(),
        ['10 A1', '2 G1'],
      );
      const step3 = server.requests.filter((r) => r.record === 'PerFunctionReview' || r.record === 'BatchReview');
      assert.deepEqual(step3.map((r) => r.functions.join(',')).sort(), ['Cart.total', 'parsePrice']);
    } finally {
      git('checkout', '--', '.');
    }
  });

  it('"Review (Auto)" picks the uncommitted change (no pull request without gh) and reviews only it', async () => {
    editShop();
    try {
      await vscode.commands.executeCommand(COMMANDS.reviewAuto, { rootUri: vscode.Uri.file(folder) });
      // As "Review Uncommitted Changes" finds (a review of the whole folder finds more, on unchanged lines).
      const on = (rel: string) => diagnostics(rel).map((d) => `${d.range.start.line} ${codeOf(d)}`);
      assert.deepEqual(on('shop/cart.ts'), ['16 A1'], JSON.stringify(api.notices.slice(-2)));
      assert.deepEqual(on('shop/price.ts').sort(), ['10 A1', '2 G1']);
    } finally {
      git('checkout', '--', '.');
    }
  });

  it('"Cancel Review" stops the run and keeps the findings already made', async () => {
    server.setScenario({
      ...scenario,
      faults: [{ kind: 'slow', ms: 30_000, times: -1, match: { file: 'shop/cart.ts', record: 'PerFunctionReview' } }],
    });
    await vscode.commands.executeCommand(COMMANDS.clear);
    const review = reviewShop();
    await until(
      vscode.languages.onDidChangeDiagnostics,
      () => diagnostics('shop/price.ts').length > 0,
      'price.ts findings before the cancel',
    );
    await vscode.commands.executeCommand(COMMANDS.cancel);
    await review;
    assert.ok(diagnostics('shop/price.ts').length >= 3, 'findings made before the cancel stay');
    assert.deepEqual(diagnostics('shop/cart.ts'), []);
    assert.ok(
      server.requests.some((r) => r.record === 'PerFunctionReview' && r.status === null),
      'in-flight calls were aborted',
    );
  });

  it('"Cancel Review" with no review running says so', async () => {
    await vscode.commands.executeCommand(COMMANDS.cancel);
    assert.deepEqual(api.notices.at(-1), { level: 'info', message: 'Skeptic: no review is running.' });
  });

  it('asks for an API key instead of failing when none is set', async () => {
    delete process.env.ANTHROPIC_API_KEY;
    try {
      await vscode.commands.executeCommand(COMMANDS.reviewFiles, uri('shop/price.ts'), [uri('shop/price.ts')]);
      const last = api.notices.at(-1);
      assert.equal(last?.level, 'error');
      assert.match(last!.message, /needs an Anthropic API key/);
      assert.equal(server.requests.length, 0);
    } finally {
      process.env.ANTHROPIC_API_KEY = 'integration-key';
    }
  });

  it('agent tool: skeptic_review reviews given files, one line per finding, and fills Problems', async () => {
    const tool = vscode.lm.tools.find((t) => t.name === 'skeptic_review');
    assert.ok(tool, 'the tool is registered and listed');
    assert.deepEqual(Object.keys((tool.inputSchema as { properties: object }).properties), ['scope', 'paths']);
    const result = await withTimeout(
      vscode.lm.invokeTool('skeptic_review', {
        input: { scope: 'files', paths: ['shop'] },
        toolInvocationToken: undefined,
      }),
      90_000,
      'the tool to answer',
    );
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    const lines = text.split('\n');
    const findingLines = lines.filter((l) =>
      /^shop\/\w+\.ts:\d+(-\d+)? (must_fix|should_fix|nice_to_have) \S+: /.test(l),
    );
    // As many lines as the summary counts (an earlier test's dismissal may hide one of the shop's seven).
    const counted = Number(/^(\d+) findings/.exec(lines.at(-1)!)?.[1]);
    assert.ok(counted >= 6, text);
    assert.equal(findingLines.length, counted, text);
    assert.ok(diagnostics('shop/cart.ts').length > 0, 'the findings are in Problems too');
  });

  it('MCP: the definition provider offers skeptic mcp from the bundled CLI, run by the editor Node', () => {
    const [server, ...more] = api.mcpServers();
    assert.equal(more.length, 0);
    assert.equal(server!.command, process.execPath);
    assert.deepEqual(server!.args, [
      join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist/cli.js'),
      'mcp',
    ]);
    assert.equal(server!.cwd, folder);
  });
});

/**
 * Resolves once `ok()` holds: checked now and each time `event` fires. Rejects after `ms` naming what it
 * waited for, well inside the suite's timeout.
 */
function until(event: vscode.Event<unknown>, ok: () => boolean, what: string, ms = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      listener.dispose();
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(() => done(new Error(`waited ${ms} ms for ${what}`)), ms);
    const listener = event(() => ok() && done());
    if (ok()) done();
  });
}
