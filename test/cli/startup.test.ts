import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { bundleCli } from '../helpers/bundle';
import { fixtureWorkspace, REPO, runCli } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';

const execFileAsync = promisify(execFile);

describe('startup: what loads when', function () {
  this.timeout(60_000);
  const fake = useFakeServer();
  let variant: string;
  let preload: string;

  before(async () => {
    variant = await buildMarkedCli();
    // Records what the bundle evaluated when the process exits; stops the run at its first request.
    preload = join(await mkdtemp(join(tmpdir(), 'skeptic-preload-')), 'preload.js');
    await writeFile(
      preload,
      `process.on('exit', () => require('fs').writeFileSync(process.env.EVALUATED_TO, JSON.stringify(globalThis.__evaluated ?? [])));
       globalThis.fetch = () => process.exit(0);`,
    );
  });

  async function evaluated(args: string[], cwd: string, env: Record<string, string> = {}): Promise<string[]> {
    const out = join(await mkdtemp(join(tmpdir(), 'skeptic-evaluated-')), 'evaluated.json');
    const run = await runCli(args, {
      cwd,
      script: variant,
      nodeArgs: ['-r', preload],
      env: { EVALUATED_TO: out, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.server.url, ...env },
    });
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(await readFile(out, 'utf8')) as string[];
  }

  it('--version evaluates the command line alone: no engine, app, scope or report code', async () => {
    const modules = await evaluated(['--version'], REPO);
    assert.ok(modules.includes('src/cli.ts'), 'the marker works');
    assert.deepEqual(
      // The one model file: what guards every line the command prints (control sequences, workflow commands).
      modules.filter((m) => !m.startsWith('src/cli') && m !== 'src/model/terminalText.ts'),
      [],
    );
  });

  it('a staged review reaches its first request without lens mode, the estimate, the reports, the parser or the other commands', async () => {
    const cwd = await fixtureWorkspace('shop');
    const modules = await evaluated(['review', 'shop', '--yes'], cwd);
    assert.ok(modules.includes('src/engine/staged/pipeline.ts'), 'the marker works');
    const early = modules.filter((m) =>
      /^src\/engine\/lenses\/|^src\/eval\/|^src\/report\/(markdown|lensMarkdown|json|lensJson|sarif)\.ts$|^src\/cli\/(plan|eval)\.ts$|^src\/app\/estimate\.ts$|^src\/scope\/syntax\/finder\.ts$|tree-sitter-wasm/.test(
        m,
      ),
    );
    assert.deepEqual(early, []);
  });

  it('asks git for the top folder once before the first request (each spawn forks the whole process)', async function () {
    if (process.platform === 'win32') this.skip();
    const cwd = await fixtureWorkspace('shop');
    await execFileAsync('git', ['init', '-q'], { cwd });
    const bin = await mkdtemp(join(tmpdir(), 'skeptic-git-log-'));
    const log = join(bin, 'calls.log');
    const real = (await execFileAsync('sh', ['-c', 'command -v git'])).stdout.trim();
    await writeFile(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
    await evaluated(['review', '--yes'], cwd, { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` });
    const calls = (await readFile(log, 'utf8')).trim().split('\n');
    assert.equal(calls.filter((c) => c === 'rev-parse --show-toplevel').length, 1, calls.join('; '));
  });
});

describe('startup: the extension host bundle', () => {
  it('holds zod/mini only: full zod (~0.45 MB) stays in the worker', async () => {
    const { metafile } = await build({
      entryPoints: [join(REPO, 'src/extension.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['vscode'],
      write: false,
      metafile: true,
      logLevel: 'error',
      loader: { '.md': 'text' },
    });
    const classic = Object.keys(metafile.inputs).filter((p) => /zod[\\/]v4[\\/]classic/.test(p));
    assert.deepEqual(classic, []);
  });
});

/** src/cli.ts bundled as esbuild.mjs does, each of our modules (and the tree-sitter runtime) noting when it is evaluated. */
function buildMarkedCli(): Promise<string> {
  const mark = (path: string) =>
    `;(globalThis.__evaluated ??= []).push(${JSON.stringify(relative(REPO, path).split('\\').join('/'))});\n`;
  return bundleCli({
    name: 'mark-evaluation',
    setup: (b) => {
      b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => ({
        contents: mark(args.path) + (await readFile(args.path, 'utf8')),
        loader: 'ts',
      }));
      b.onLoad({ filter: /tree-sitter-wasm[\\/].*\.js$/ }, async (args) => ({
        contents: mark(args.path) + (await readFile(args.path, 'utf8')),
        loader: 'js',
      }));
    },
  });
}

describe('startup: the code cache', function () {
  this.timeout(60_000);
  const vmCache = !(Module as { enableCompileCache?: unknown }).enableCompileCache;

  const cacheFiles = async (home: string) => {
    const dir = join(home, 'skeptic', 'code-cache');
    return (await readdir(dir, { recursive: true }).catch(() => [] as string[])).map((f) => join(dir, f));
  };
  const version = (home: string, env: Record<string, string> = {}) =>
    runCli(['--version'], { cwd: REPO, env: { XDG_CACHE_HOME: home, ...env } });

  it('is made by the first start, under the user cache folder', async () => {
    const home = await mkdtemp(join(tmpdir(), 'skeptic-home-'));
    const run = await version(home);
    assert.equal(run.code, 0, run.stderr);
    assert.ok((await cacheFiles(home)).length > 0);
  });

  it('is not made with SKEPTIC_NO_CODE_CACHE=1', async () => {
    const home = await mkdtemp(join(tmpdir(), 'skeptic-home-'));
    const run = await version(home, { SKEPTIC_NO_CODE_CACHE: '1' });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(await cacheFiles(home), []);
  });

  it('is reused as it is by the next start (V8 accepted it), and a corrupt one is replaced without failing the run', async function () {
    if (!vmCache) this.skip(); // Node's own compile cache checks its files itself
    const home = await mkdtemp(join(tmpdir(), 'skeptic-home-'));
    await version(home);
    const [file] = await cacheFiles(home);
    assert.ok(file?.endsWith('.v8'), 'one data file');
    const made = await readFile(file);
    // Dated an hour back: a rewrite, however soon, would date it now.
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000);
    await utimes(file, past, past);
    assert.equal((await version(home)).stdout, (await runCli(['--version'], { cwd: REPO })).stdout);
    assert.equal((await stat(file)).mtimeMs, past.getTime(), 'accepted data is not written again');

    const corrupt = Buffer.from(made);
    for (let i = 64; i < corrupt.length; i += 97) corrupt[i] ^= 0xff;
    await writeFile(file, corrupt);
    const run = await version(home);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^skeptic \d/);
    assert.equal(run.stderr, '');
    assert.ok(!(await readFile(file)).equals(corrupt), 'the corrupt data was replaced');
  });

  it('runs the CLI the same with or without it', async () => {
    const home = await mkdtemp(join(tmpdir(), 'skeptic-home-'));
    const cached = await runCli(['plan', 'shop'], {
      cwd: await fixtureWorkspace('shop'),
      env: { XDG_CACHE_HOME: home },
    });
    const again = await runCli(['plan', 'shop'], {
      cwd: await fixtureWorkspace('shop'),
      env: { XDG_CACHE_HOME: home },
    });
    const plain = await runCli(['plan', 'shop'], {
      cwd: await fixtureWorkspace('shop'),
      env: { SKEPTIC_NO_CODE_CACHE: '1' },
    });
    assert.equal(cached.code, 0, cached.stderr);
    assert.equal(again.stdout, plain.stdout);
    assert.equal(cached.stdout, plain.stdout);
  });
});
