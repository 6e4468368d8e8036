#!/usr/bin/env node
// Real-VS-Code e2e runner: code-server 4.139.1 (VS Code 1.139.1, on Node 24) + Debian Chromium driven
// by playwright-core. Plain Node ESM, no build step; runs with the machine's Node 20.
// See test/e2e/README.md for the flags, the payload route for extension-host tests, and the artifacts.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  appendFileSync,
  copyFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import { adoptGroup, installSignalHandlers, runChecked, spawnGroup, stopAll, stopGroup } from './lib/procs.mjs';
import { until as waitFor } from './lib/wait.mjs';
import { CHROMIUM, ensureDeps, envWithNode24 } from './lib/install.mjs';
import { extractZip, readZipEntry } from './lib/zip.mjs';
import { waitForWorkbench } from './workbench.mjs';

const E2E = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(E2E, '..', '..');
const ARTIFACTS = join(E2E, 'artifacts');
const SMOKE = join(E2E, 'smoke-extension');

const USAGE = `usage: node test/e2e/run.mjs [options]
  --smoke                 self-check of the harness with test/e2e/smoke-extension (both suites)
  --suite exthost|ui|all  which suites to run (default: all)
  --vsix PATH             extension to test (default: \`npm run package\` in the repo, the .vsix it made)
  --fixture NAME|PATH     workspace = fresh temp folder holding a copy of test/fixtures/NAME as NAME/
                          (default: shop; with --smoke: test/e2e/smoke-extension/fixture/demo)
  --workspace DIR         open DIR itself instead of a fixture copy (used as is, not copied)
  --ext-tests PATH        extension-host test entry (JS exporting run(): Promise<void>); needed for exthost
  --with-extension DIR    package the extension folder DIR (vsce) and install it in the extension-host
                          suite's extensions dir, beside the one under test (a test-only extension); repeatable
  --grep PATTERN          run only the extension-host tests whose full titles match (SKEPTIC_E2E_GREP in
                          the extension host; each test of test/integration sets up what it needs)
  --ui-suite PATH         UI suite module exporting runUiSuite (default: test/e2e/ui-suite.mjs)
  --fake-scenario FILE    start \`node dist/fake-anthropic.js --port 0 --scenario FILE\` and point the
                          extension at it (skeptic.baseUrl, ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY=e2e-key)
  --exthost-timeout SEC   wait this long for the extension-host result file (default: 300)
  --no-retry              do not retry a failed UI suite (default: one retry of the whole UI suite)
  --install-only          install/check the cached tools and exit
  --keep                  keep the temp folder (user data, logs, workspace copies) for inspection
  --help
env: SKEPTIC_E2E_CACHE (default ~/.cache/skeptic-e2e)`;

function parse() {
  try {
    const { values } = parseArgs({
      options: {
        smoke: { type: 'boolean' },
        suite: { type: 'string' },
        vsix: { type: 'string' },
        fixture: { type: 'string' },
        workspace: { type: 'string' },
        'ext-tests': { type: 'string' },
        'with-extension': { type: 'string', multiple: true },
        grep: { type: 'string' },
        'ui-suite': { type: 'string' },
        'fake-scenario': { type: 'string' },
        'exthost-timeout': { type: 'string' },
        'no-retry': { type: 'boolean' },
        'install-only': { type: 'boolean' },
        keep: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
    return values;
  } catch (err) {
    console.error(`e2e: ${err.message}\n${USAGE}`);
    process.exit(2);
  }
}

const started = Date.now();
const elapsed = (t0 = started) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
function log(msg) {
  const line = `[e2e +${elapsed()}] ${msg}`;
  console.log(line);
  try {
    appendFileSync(join(ARTIFACTS, 'run.log'), `${line}\n`);
  } catch {
    // artifacts folder not there yet
  }
}

function usageError(msg) {
  console.error(`e2e: ${msg}\n${USAGE}`);
  process.exit(2);
}

async function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

function remoteUri(port, absPath) {
  return `vscode-remote://127.0.0.1:${port}${absPath.split('/').map(encodeURIComponent).join('/')}`;
}

function slug(s) {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}

function privateDir(...parts) {
  const dir = join(...parts);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The environment code-server (and so its extension host) runs with: hermetic (XDG dirs and TMPDIR,
 * where VS Code puts its vscode-ipc/vscode-git sockets, under the run's temp folder), Node 24 first on PATH.
 */
function serverEnv(paths, home, extra) {
  const env = envWithNode24(paths, {
    XDG_CONFIG_HOME: join(home, 'xdg-config'),
    XDG_DATA_HOME: join(home, 'xdg-data'),
    XDG_CACHE_HOME: join(home, 'xdg-cache'),
    TMPDIR: privateDir(home, 'tmp'),
  });
  for (const k of Object.keys(env)) {
    if (
      k.startsWith('VSCODE_') ||
      k === 'ELECTRON_RUN_AS_NODE' ||
      k.startsWith('ANTHROPIC_') ||
      k.startsWith('SKEPTIC_E2E_') ||
      k.startsWith('npm_')
    )
      delete env[k];
  }
  return { ...env, ...extra };
}

function userSettings(fakeUrl) {
  return {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'security.workspace.trust.enabled': false,
    'chat.disableAIFeatures': true,
    'git.openRepositoryInParentFolders': 'never',
    'explorer.compactFolders': false,
    'problems.defaultViewMode': 'tree',
    'editor.minimap.enabled': false,
    'files.autoSave': 'off',
    'window.restoreWindows': 'none',
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    ...(fakeUrl ? { 'skeptic.baseUrl': fakeUrl } : {}),
  };
}

async function main() {
  const opts = parse();
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  const suite = opts.suite ?? 'all';
  if (!['exthost', 'ui', 'all'].includes(suite)) usageError(`--suite must be exthost, ui or all, got "${suite}"`);
  const wantExthost = suite !== 'ui';
  const wantUi = suite !== 'exthost';
  const cache = resolve(process.env.SKEPTIC_E2E_CACHE || join(homedir(), '.cache', 'skeptic-e2e'));
  const exthostTimeoutMs = Number(opts['exthost-timeout'] ?? 300) * 1000;
  if (!Number.isFinite(exthostTimeoutMs) || exthostTimeoutMs <= 0)
    usageError('--exthost-timeout must be a positive number of seconds');
  const fromCwd = (p) => resolve(process.cwd(), p);

  // Inputs, checked before anything is installed or started.
  const smoke = !!opts.smoke;
  const withExtensions = (opts['with-extension'] ?? []).map(fromCwd);
  const extTests = opts['ext-tests'] ? fromCwd(opts['ext-tests']) : smoke ? join(SMOKE, 'test', 'index.js') : undefined;
  const uiSuitePath = opts['ui-suite']
    ? fromCwd(opts['ui-suite'])
    : smoke
      ? join(SMOKE, 'ui-suite.mjs')
      : join(E2E, 'ui-suite.mjs');
  // The self-check also proves the fake-server plumbing, with the repo's shop scenario when it is there.
  const smokeScenario = join(REPO, 'test', 'fixtures', 'shop.scenario.json');
  const fakeScenario = opts['fake-scenario']
    ? fromCwd(opts['fake-scenario'])
    : smoke && existsSync(smokeScenario)
      ? smokeScenario
      : undefined;
  let fixtureDir;
  if (!opts.workspace) {
    const name = opts.fixture ?? (smoke ? undefined : 'shop');
    fixtureDir =
      smoke && !opts.fixture
        ? join(SMOKE, 'fixture', 'demo')
        : name.includes('/')
          ? fromCwd(name)
          : join(REPO, 'test', 'fixtures', name);
    if (!existsSync(fixtureDir) || !statSync(fixtureDir).isDirectory())
      usageError(`fixture folder not found: ${fixtureDir}`);
  } else if (!existsSync(fromCwd(opts.workspace))) {
    usageError(`--workspace folder not found: ${fromCwd(opts.workspace)}`);
  }
  if (!opts['install-only']) {
    if (wantExthost && !extTests) usageError('the exthost suite needs --ext-tests PATH (or run --suite ui)');
    if (wantExthost && !existsSync(extTests)) usageError(`--ext-tests file not found: ${extTests}`);
    for (const dir of withExtensions)
      if (!existsSync(join(dir, 'package.json'))) usageError(`--with-extension folder has no package.json: ${dir}`);
    if (wantUi && !existsSync(uiSuitePath)) usageError(`UI suite module not found: ${uiSuitePath}`);
    if (fakeScenario && !existsSync(fakeScenario)) usageError(`--fake-scenario file not found: ${fakeScenario}`);
    if (opts.vsix && !existsSync(fromCwd(opts.vsix))) usageError(`--vsix file not found: ${fromCwd(opts.vsix)}`);
  }

  // Artifacts: this run's only (the folder is git-ignored); --install-only leaves the last run's alone.
  if (!opts['install-only']) rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });

  const state = { browser: undefined, browserServer: undefined };
  const report = { timings: [], suites: [], passed: 0, failed: 0 };
  const tmp = mkdtempSync(join(tmpdir(), 'skeptic-e2e-'));
  installSignalHandlers(async () => {
    await state.browser?.close().catch(() => {});
    await stopAll();
    if (!opts.keep) rmSync(tmp, { recursive: true, force: true });
  });

  let exitCode = 1;
  try {
    // 1. Tools.
    const tInstall = Date.now();
    const { paths, timings } = await ensureDeps({ cache, log, logDir: ARTIFACTS, needBrowser: true });
    report.timings.push(['install/check tools', Date.now() - tInstall], ...timings.map((t) => [`  ${t.what}`, t.ms]));
    if (opts['install-only']) {
      log(`install-only: tools ready in ${cache}`);
      exitCode = 0;
      return;
    }

    // 2. The extension.
    const tPkg = Date.now();
    const vsix = opts.vsix
      ? fromCwd(opts.vsix)
      : smoke
        ? await packageFolder(SMOKE, join(tmp, 'skeptic-e2e-smoke.vsix'))
        : await packageRepo();
    // Test-only extensions installed beside it (the workbench takes one extensionDevelopmentPath only).
    const companions = [];
    for (const [i, dir] of withExtensions.entries())
      companions.push(await packageFolder(dir, join(tmp, `with-extension-${i}.vsix`)));
    const manifest = JSON.parse(readZipEntry(vsix, 'extension/package.json')?.toString() ?? 'null');
    if (!manifest) throw new Error(`${vsix} has no extension/package.json: not a VS Code extension package`);
    const extId = `${manifest.publisher}.${manifest.name}`.toLowerCase();
    report.timings.push(['package extension', Date.now() - tPkg]);
    log(`extension: ${extId}@${manifest.version} from ${vsix}`);

    // 3. The fake Messages API server.
    let fakeUrl;
    if (fakeScenario) fakeUrl = await startFake(fakeScenario);

    const ctx = {
      paths,
      tmp,
      vsix,
      extId,
      companions,
      fakeUrl,
      grep: opts.grep,
      fixtureDir,
      workspaceOpt: opts.workspace && fromCwd(opts.workspace),
      state,
    };

    // 4. The browser (one for the run; each suite/attempt gets its own context).
    await launchBrowser(paths, state, tmp);

    if (wantExthost) {
      const t = Date.now();
      const r = await runExthost(ctx, { extTests, timeoutMs: exthostTimeoutMs }).catch((err) => ({
        ok: false,
        error: err.message,
        passed: 0,
        failed: 1,
      }));
      report.suites.push({ name: 'extension-host', ms: Date.now() - t, ...r });
    }
    if (wantUi) {
      const t = Date.now();
      const r = await runUi(ctx, { uiSuitePath, retry: !opts['no-retry'] });
      report.suites.push({ name: 'UI', ms: Date.now() - t, ...r });
    }
    exitCode = report.suites.every((s) => s.ok) ? 0 : 1;
  } catch (err) {
    log(`FAILED: ${err.message}`);
    report.error = err.message;
    exitCode = 1;
  } finally {
    await state.browser?.close().catch(() => {});
    await state.browserServer?.close().catch(() => {});
    await stopAll();
    if (opts.keep) log(`kept temp folder ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
    summarize(report, cache);
  }
  return exitCode;
}

// ------------------------------------------------------------------------------------------- packaging

/** A plain extension folder (no build step: the smoke extension, a --with-extension one) packaged with vsce. */
async function packageFolder(dir, out) {
  const vsce = join(REPO, 'node_modules', '.bin', 'vsce');
  if (!existsSync(vsce)) throw new Error(`${vsce} missing: run \`npm ci\` in the repo first`);
  log(`packaging ${dir} with vsce`);
  await runChecked(
    `vsce package (${basename(dir)})`,
    vsce,
    ['package', '--no-dependencies', '--allow-missing-repository', '--out', out],
    {
      cwd: dir,
      logFile: join(ARTIFACTS, 'package.log'),
      timeoutMs: 120_000,
    },
  );
  return out;
}

async function packageRepo() {
  log('packaging the extension: npm run package');
  const t0 = Date.now() - 1000;
  const out = await runChecked('npm run package', 'npm', ['run', 'package'], {
    cwd: REPO,
    logFile: join(ARTIFACTS, 'package.log'),
    timeoutMs: 10 * 60_000,
  });
  const said = [...out.matchAll(/Packaged:\s+(\S+\.vsix)/g)].pop()?.[1];
  if (said && existsSync(resolve(REPO, said))) return resolve(REPO, said);
  const fresh = readdirSync(REPO)
    .filter((f) => f.endsWith('.vsix'))
    .map((f) => join(REPO, f))
    .filter((f) => statSync(f).mtimeMs >= t0);
  if (fresh.length === 1) return fresh[0];
  throw new Error(
    `npm run package made ${fresh.length} new .vsix files in ${REPO} and printed no "Packaged: FILE": pass --vsix PATH`,
  );
}

// ------------------------------------------------------------------------------------------- processes

async function startFake(scenario) {
  const entry = join(REPO, 'dist', 'fake-anthropic.js');
  if (!existsSync(entry)) {
    log('dist/fake-anthropic.js missing: npm run build');
    await runChecked('npm run build', 'npm', ['run', 'build'], {
      cwd: REPO,
      logFile: join(ARTIFACTS, 'build.log'),
      timeoutMs: 5 * 60_000,
    });
  }
  let url;
  const child = spawnGroup(
    'fake-anthropic',
    process.execPath,
    [entry, '--port', '0', '--scenario', scenario, '--log', join(ARTIFACTS, 'fake-anthropic-requests.jsonl')],
    {
      cwd: REPO,
      logFile: join(ARTIFACTS, 'fake-anthropic.log'),
      onLine: (line) => {
        const m = /fake-anthropic listening on (http:\/\/\S+)/.exec(line);
        if (m) url = m[1];
      },
    },
  );
  let exited;
  child.exited.then((code) => {
    exited = code;
  });
  await waitFor(
    'the fake Messages API server to print "fake-anthropic listening on http://…"',
    () => {
      if (exited !== undefined) throw new Error(`fake-anthropic exited with ${exited}: ${child.tail().slice(-800)}`);
      return url;
    },
    { timeoutMs: 20_000, intervalMs: 50 },
  ).catch((err) => {
    throw new Error(`${err.message} (log: ${join(ARTIFACTS, 'fake-anthropic.log')})`);
  });
  log(`fake Messages API: ${url} (scenario ${scenario})`);
  return url;
}

/** Starts code-server in its own process group with private dirs; resolves once /healthz answers. */
async function startCodeServer(ctx, { label, extensionsDir, smokeDriver, env }) {
  const home = join(ctx.tmp, label);
  const userData = join(home, 'user-data');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userData, 'User', 'settings.json'), `${JSON.stringify(userSettings(ctx.fakeUrl), null, 2)}\n`);
  const config = join(home, 'config.yaml');
  writeFileSync(config, 'auth: none\ncert: false\n');
  const logFile = join(ARTIFACTS, `code-server-${label}.log`);
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const args = [
      ctx.paths.codeServerEntry,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--config',
      config,
      '--user-data-dir',
      userData,
      '--extensions-dir',
      extensionsDir,
      ...(smokeDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ];
    const t0 = Date.now();
    const child = spawnGroup(`code-server(${label})`, ctx.paths.node24, args, {
      env: serverEnv(ctx.paths, home, env),
      logFile,
    });
    let exited;
    child.exited.then((code) => {
      exited = code;
    });
    try {
      await waitFor(
        `code-server (${label}) to answer http://127.0.0.1:${port}/healthz`,
        async () => {
          if (exited !== undefined)
            throw Object.assign(new Error(`code-server exited with ${exited} before answering /healthz`), {
              fatal: true,
            });
          const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
          return res.ok;
        },
        { timeoutMs: 60_000, intervalMs: 200 },
      );
    } catch (err) {
      await stopGroup(child.pid);
      const tail = child.tail();
      if (/EADDRINUSE/.test(tail) && attempt < 3) {
        log(`code-server (${label}): port ${port} taken meanwhile, trying another`);
        continue;
      }
      throw new Error(`${err.message}; log ${logFile}:\n${tail.slice(-2000)}`);
    }
    log(`code-server (${label}) up on 127.0.0.1:${port} in ${elapsed(t0)} (pgid ${child.pid})`);
    return { port, base: `http://127.0.0.1:${port}`, child, userData, stop: () => stopGroup(child.pid) };
  }
  throw new Error('unreachable');
}

async function launchBrowser(paths, state, tmp) {
  const { chromium } = await import(pathToFileURL(paths.playwrightEntry).href);
  const server = await chromium.launchServer({
    executablePath: CHROMIUM,
    // Chromium's crash reporter writes ~/.config/chromium/Crash Reports whatever the profile dir: keep it private.
    // So do its TMPDIR scratch dirs (org.chromium.Chromium.*) and GTK's ~/.cache/dconf.
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(tmp, 'chromium', 'config'),
      XDG_CACHE_HOME: join(tmp, 'chromium', 'cache'),
      TMPDIR: privateDir(tmp, 'chromium', 'tmp'),
    },
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const pid = server.process()?.pid;
  if (pid) adoptGroup(pid, 'chromium'); // playwright spawns the browser detached: pgid === pid
  state.browserServer = server;
  state.browser = await chromium.connect(server.wsEndpoint());
  log(`chromium ${state.browser.version()} (pgid ${pid})`);
}

async function newPage(state, consoleLog) {
  const context = await state.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const lines = [];
  const write = (line) => {
    lines.push(line);
    appendFileSync(consoleLog, `${line}\n`);
  };
  page.on('console', (m) => write(`[${new Date().toISOString()}] ${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => write(`[${new Date().toISOString()}] pageerror: ${e.message}`));
  return { context, page, consoleLines: lines };
}

/**
 * The folder VS Code opens: `--workspace` as is, or a fresh temp folder holding a copy of the fixture
 * under its own name (test/fixtures/shop → WS/shop/…), the layout the fake scenarios' paths
 * ("shop/cart.ts") and the integration suite expect.
 */
function makeWorkspace(ctx, label) {
  if (ctx.workspaceOpt) return ctx.workspaceOpt;
  const ws = join(ctx.tmp, `ws-${label}`);
  cpSync(ctx.fixtureDir, join(ws, basename(ctx.fixtureDir)), { recursive: true });
  return ws;
}

function suiteEnv(ctx, ws, extra = {}) {
  return {
    SKEPTIC_E2E: '1',
    SKEPTIC_E2E_WORKSPACE: ws,
    ...(ctx.fakeUrl
      ? { SKEPTIC_E2E_FAKE_URL: ctx.fakeUrl, ANTHROPIC_BASE_URL: ctx.fakeUrl, ANTHROPIC_API_KEY: 'e2e-key' }
      : {}),
    ...(ctx.grep ? { SKEPTIC_E2E_GREP: ctx.grep } : {}),
    ...extra,
  };
}

// --------------------------------------------------------------------------------- extension-host suite

async function runExthost(ctx, { extTests, timeoutMs }) {
  log('--- extension-host suite ---');
  // extensionDevelopmentPath = the vsix unpacked: the tests load exactly the files that ship.
  const devExt = join(ctx.tmp, 'dev-extension');
  extractZip(ctx.vsix, devExt, 'extension/');
  const ws = makeWorkspace(ctx, 'exthost');
  const resultFile = join(ctx.tmp, 'exthost-result.json');
  rmSync(resultFile, { force: true });
  // Only the development extension runs, and the --with-extension ones installed here beside it.
  const extensionsDir = join(ctx.tmp, 'exthost', 'extensions');
  mkdirSync(extensionsDir, { recursive: true });
  for (const vsix of ctx.companions) await installVsix(ctx, extensionsDir, vsix);
  const cs = await startCodeServer(ctx, {
    label: 'exthost',
    extensionsDir,
    smokeDriver: true,
    env: suiteEnv(ctx, ws, { SKEPTIC_E2E_RESULT: resultFile }),
  });
  const consoleLog = join(ARTIFACTS, 'exthost-browser-console.log');
  const { context, page, consoleLines } = await newPage(ctx.state, consoleLog);
  try {
    const payload = [
      ['extensionDevelopmentPath', remoteUri(cs.port, devExt)],
      ['extensionTestsPath', remoteUri(cs.port, extTests)],
    ];
    const url = `${cs.base}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    log(`opening the Extension Development Host: tests ${extTests}`);
    const t0 = Date.now();
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    let result;
    // When run() rejects, VS Code only logs the error to the browser console (the extension host
    // still exits 0). Such an error names _doHandleExtensionTests; after it, give the result file a
    // short grace period (the helper writes it before rejecting), then fail without waiting out the timeout.
    const testsError = () =>
      consoleLines.find(
        (l) => /_doHandleExtensionTests|extensionTestsExecute/.test(l) && !/^\S+ (log|info|debug):/.test(l),
      );
    let testsErrorAt;
    try {
      result = await waitFor(
        `the extension-host result file ${resultFile} (written by the tests' run())`,
        () => {
          if (existsSync(resultFile)) return JSON.parse(readFileSync(resultFile, 'utf8'));
          if (testsError()) {
            testsErrorAt ??= Date.now();
            if (Date.now() - testsErrorAt > 3000)
              throw Object.assign(new Error('run() failed without writing a result'), { fatal: true });
          }
          return undefined;
        },
        { timeoutMs, intervalMs: 250 },
      );
    } catch (err) {
      await page.screenshot({ path: join(ARTIFACTS, 'exthost-no-result.png') }).catch(() => {});
      const thrown = testsError();
      const detail = thrown
        ? `the tests' run() threw:\n${thrown.split('\n').slice(0, 12).join('\n')}`
        : `browser console errors:\n${
            consoleLines
              .filter((l) => /\b(error|pageerror)\b:/.test(l))
              .slice(-6)
              .map((l) => l.split('\n')[0].slice(0, 300))
              .join('\n') || '(none)'
          }`;
      throw new Error(
        `no extension-host result: ${err.fatal ? err.message : `${err.message}; did run() load?`}\n${detail}\n(full browser console: ${consoleLog})`,
      );
    }
    copyFileSync(resultFile, join(ARTIFACTS, 'exthost-result.json'));
    await page.screenshot({ path: join(ARTIFACTS, 'exthost-end.png') }).catch(() => {});
    log(
      `extension-host result after ${elapsed(t0)}: ${result.passed} passed, ${result.failed} failed${result.pending ? `, ${result.pending} pending` : ''}`,
    );
    for (const t of result.tests ?? [])
      log(
        `  ${t.state === 'passed' ? 'ok  ' : t.state === 'failed' ? 'FAIL' : 'skip'} ${t.title}${t.ms !== undefined ? ` (${t.ms} ms)` : ''}`,
      );
    for (const f of result.failures ?? [])
      log(
        `  FAILURE ${f.title}:\n${String(f.error)
          .split('\n')
          .slice(0, 12)
          .map((l) => `      ${l}`)
          .join('\n')}`,
      );
    const passed = Number(result.passed) || 0;
    const failed = Number(result.failed) || 0;
    if (!Number.isInteger(result.passed) || !Number.isInteger(result.failed))
      return {
        ok: false,
        passed,
        failed: failed || 1,
        error: `malformed result file: ${JSON.stringify(result).slice(0, 300)}`,
      };
    if (failed > 0) return { ok: false, passed, failed, error: `${failed} extension-host test(s) failed` };
    if (passed === 0) return { ok: false, passed, failed: 1, error: 'the extension-host suite ran no test' };
    return { ok: true, passed, failed };
  } finally {
    await context.close().catch(() => {});
    await cs.stop();
  }
}

// ------------------------------------------------------------------------------------------- UI suite

async function installVsix(ctx, extensionsDir, vsix = ctx.vsix) {
  const manifest = JSON.parse(readZipEntry(vsix, 'extension/package.json')?.toString() ?? 'null');
  if (!manifest) throw new Error(`${vsix} has no extension/package.json: not a VS Code extension package`);
  const extId = `${manifest.publisher}.${manifest.name}`.toLowerCase();
  const home = join(ctx.tmp, 'vsix-install');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.yaml'), 'auth: none\ncert: false\n');
  const t0 = Date.now();
  await runChecked(
    'code-server --install-extension',
    ctx.paths.node24,
    [
      ctx.paths.codeServerEntry,
      '--config',
      join(home, 'config.yaml'),
      '--user-data-dir',
      join(home, 'user-data'),
      '--extensions-dir',
      extensionsDir,
      '--install-extension',
      vsix,
    ],
    { env: serverEnv(ctx.paths, home, {}), logFile: join(ARTIFACTS, 'install-extension.log'), timeoutMs: 120_000 },
  );
  const installed = readdirSync(extensionsDir).filter((d) => d.toLowerCase().startsWith(`${extId}-`));
  if (installed.length === 0)
    throw new Error(
      `code-server --install-extension exited 0 but ${extensionsDir} holds no ${extId}-* folder (log: ${join(ARTIFACTS, 'install-extension.log')})`,
    );
  log(`installed ${installed.join(', ')} into the private extensions dir in ${elapsed(t0)}`);
}

async function runUi(ctx, { uiSuitePath, retry }) {
  log('--- UI suite ---');
  const extensionsDir = join(ctx.tmp, 'ui-extensions');
  await installVsix(ctx, extensionsDir);
  const { runUiSuite } = await import(pathToFileURL(uiSuitePath).href);
  if (typeof runUiSuite !== 'function')
    return { ok: false, passed: 0, failed: 1, error: `${uiSuitePath} does not export runUiSuite` };
  const attempts = retry ? 2 : 1;
  let lastError;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const r = await uiAttempt(ctx, { runUiSuite, extensionsDir, attempt });
    if (r.ok) return { ...r, retried: attempt > 1, firstError: lastError };
    lastError = r.error;
    // Keep the failed attempt's screenshots (and failure DOM dumps) apart; the retry numbers its own from 01 again.
    const dir = join(ARTIFACTS, `ui-attempt-${attempt}`);
    mkdirSync(dir, { recursive: true });
    for (const f of readdirSync(ARTIFACTS))
      if (/^\d\d-.*\.(png|html)$/.test(f)) renameSync(join(ARTIFACTS, f), join(dir, f));
    if (attempt < attempts)
      log(
        `UI suite attempt ${attempt} failed (${r.error.split('\n')[0]}); retrying the whole suite once with a fresh code-server, profile and workspace`,
      );
    else return r;
  }
  return { ok: false, passed: 0, failed: 1, error: lastError };
}

async function uiAttempt(ctx, { runUiSuite, extensionsDir, attempt }) {
  const label = `ui-${attempt}`;
  let cs;
  let context;
  let shots = 0;
  let passed = 0;
  let page;
  try {
    const ws = makeWorkspace(ctx, label);
    cs = await startCodeServer(ctx, { label, extensionsDir, smokeDriver: false, env: suiteEnv(ctx, ws) });
    ({ context, page } = await newPage(ctx.state, join(ARTIFACTS, `${label}-browser-console.log`)));
    const shot = async (name) => {
      shots++;
      const file = join(ARTIFACTS, `${String(shots).padStart(2, '0')}-${slug(name)}.png`);
      await page.screenshot({ path: file });
      log(`  screenshot ${basename(file)}`);
      return file;
    };
    const step = async (name, fn, timeoutMs = 60_000) => {
      const t0 = Date.now();
      let timer;
      try {
        await Promise.race([
          Promise.resolve().then(fn),
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`did not finish within ${(timeoutMs / 1000).toFixed(0)} s`)),
              timeoutMs,
            );
          }),
        ]);
      } catch (err) {
        log(`  FAIL step "${name}" after ${elapsed(t0)}: ${err.message}`);
        const png = await shot(`FAILED-${name}`).catch(() => undefined);
        // The DOM at the moment of failure, for fixing selectors (shadow roots and frames not included).
        if (png)
          await page
            .content()
            .then((html) => writeFileSync(png.replace(/\.png$/, '.html'), html))
            .catch(() => {});
        throw new Error(`UI step "${name}" failed: ${err.message}`);
      } finally {
        clearTimeout(timer);
      }
      passed++;
      log(`  ok   step "${name}" (${elapsed(t0)})`);
    };
    const t0 = Date.now();
    await step(
      'open the workbench',
      async () => {
        await page.goto(`${cs.base}/?folder=${encodeURIComponent(ws)}`, {
          waitUntil: 'domcontentloaded',
          timeout: 60_000,
        });
        await waitForWorkbench(page, { timeoutMs: 90_000 });
      },
      120_000,
    );
    log(`workbench loaded in ${elapsed(t0)}`);
    await runUiSuite({ page, workspace: ws, shot, step, fakeUrl: ctx.fakeUrl, log, extensionId: ctx.extId });
    return { ok: true, passed, failed: 0 };
  } catch (err) {
    return { ok: false, passed, failed: 1, error: err.message };
  } finally {
    await context?.close().catch(() => {});
    await cs?.stop();
  }
}

// -------------------------------------------------------------------------------------------- summary

function duBytes(dir) {
  try {
    return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
  } catch {
    return undefined;
  }
}

function summarize(report, cache) {
  const lines = ['', '=== e2e summary ==='];
  for (const [what, ms] of report.timings) lines.push(`${what.padEnd(58)} ${(ms / 1000).toFixed(1).padStart(7)} s`);
  for (const s of report.suites) {
    lines.push(
      `${`${s.name} suite: ${s.ok ? 'PASSED' : 'FAILED'}${s.retried ? ' (on retry: FLAKY)' : ''}`.padEnd(58)} ${(s.ms / 1000).toFixed(1).padStart(7)} s`,
    );
    if (s.retried) lines.push(`  first attempt failed: ${s.firstError?.split('\n')[0]}`);
    if (!s.ok) lines.push(`  ${s.error}`);
    report.passed += s.passed;
    report.failed += s.failed;
  }
  if (report.error) {
    lines.push(`error: ${report.error}`);
    report.failed += 1;
  }
  const bytes = duBytes(cache);
  if (bytes !== undefined)
    lines.push(`${`cache ${cache}`.padEnd(58)} ${(bytes / 1024 / 1024).toFixed(0).padStart(7)} MB`);
  lines.push(`${'total wall time'.padEnd(58)} ${elapsed().padStart(9)}`);
  lines.push(`artifacts: ${ARTIFACTS}`);
  // The plain closing line CI reads (tests = extension-host tests + UI steps).
  if (report.suites.length > 0 || report.error) lines.push(`e2e: ${report.passed} passed, ${report.failed} failed`);
  for (const l of lines) log(l);
}

main().then(
  (code) => process.exit(code),
  async (err) => {
    console.error(`e2e: ${err.stack ?? err}`);
    await stopAll();
    process.exit(1);
  },
);
