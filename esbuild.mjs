// Bundles the extension, the worker, the CLI and the fake Messages API server into dist/; with
// --production, minified and without source maps (what the .vsix ships); with --tests, also every test,
// the extension-host suite and the benchmarks into out/. Prompts load as text through the same loader.
// The tree-sitter WASM files are copied beside the bundles.
import * as esbuild from 'esbuild';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const tests = process.argv.includes('--tests');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  loader: { '.md': 'text' },
  logLevel: 'warning',
  // secretlint's profiler grows without bound and slows every scan; see src/scope/secretlintProfiler.ts.
  alias: { '@secretlint/profiler': './src/scope/secretlintProfiler.ts' },
  plugins: [builtinImports()],
};

/**
 * A package's `import("node:fs")` of a Node built-in becomes process.getBuiltinModule("node:fs") where Node
 * has it (≥ 20.16). A bundle started from V8's code cache (src/boot/codeCache.ts) cannot make a real
 * import(): Node loses the script's import callback for functions read from cached data, so tree-sitter's
 * runtime and secretlint's key-file rule would fail on every cached start.
 */
function builtinImports() {
  const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  const call = /\bimport\((["'])([\w:/]+)\1\)/g;
  return {
    name: 'builtin-imports',
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import(')) return undefined;
        const contents = text.replace(call, (whole, q, name) =>
          builtins.has(name)
            ? `Promise.resolve(globalThis.process.getBuiltinModule?.(${q}${name}${q}) ?? ${whole})`
            : whole,
        );
        return contents === text ? undefined : { contents, loader: 'js' };
      });
    },
  };
}

/**
 * src/engine/connect.ts imports each cloud platform's module lazily; in the CLI's and the worker's bundles that
 * import becomes a require of its own bundle beside them (dist/bedrock.js, dist/vertex.js), so neither grows.
 */
function platformBundles() {
  return {
    name: 'platform-bundles',
    setup(build) {
      build.onResolve({ filter: /^\.\/providers\/(bedrock|vertex)$/ }, (args) => ({
        path: args.path.slice('./providers/'.length),
        namespace: 'platform-bundle',
      }));
      // A require, not an import(): a bundle run from V8's code cache cannot make a real import() (src/boot/).
      build.onLoad({ filter: /.*/, namespace: 'platform-bundle' }, (args) => ({
        contents: `module.exports = require(require('node:path').join(__dirname, ${JSON.stringify(`${args.path}.js`)}));`,
        loader: 'js',
      }));
    },
  };
}

// test/fixtures holds code under review, and test/e2e runs under its own Node: neither is bundled here.
const SKIP = new Set([join('test', 'fixtures'), join('test', 'e2e')]);
function walk(dir, pick) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (SKIP.has(p)) return [];
    return statSync(p).isDirectory() ? walk(p, pick) : pick(p) ? [p] : [];
  });
}

// The CLI's and the worker's code, always minified: half the bytes to read and hash at every start, and pure
// ASCII (read without decoding UTF-8); names are kept for the stack trace of an internal error, and dev
// builds link a source map. Measured in docs/caching.md ("What loads when").
const programs = { ...common, minify: true, keepNames: true };
const builds = [
  // dist/cli.js and dist/worker.js are small loaders that start their bundle through V8's code cache (src/boot/).
  esbuild.build({
    ...common,
    entryPoints: { cli: 'src/boot/cli.ts' },
    outdir: 'dist',
    banner: { js: '#!/usr/bin/env node' },
  }),
  esbuild.build({
    ...common,
    entryPoints: { worker: 'src/boot/worker.ts', 'fake-anthropic': 'test/fake-anthropic/main.ts' },
    outdir: 'dist',
  }),
  esbuild.build({
    ...programs,
    entryPoints: { 'cli.bundle': 'src/cli.ts', 'worker.bundle': 'src/worker.ts' },
    outdir: 'dist',
    plugins: [...common.plugins, platformBundles()],
  }),
  // The function finder's worker thread (src/scope/syntax/parsePool.ts), beside the bundles that start it.
  esbuild.build({ ...programs, entryPoints: { parser: 'src/scope/syntax/parseWorker.ts' }, outdir: 'dist' }),
  // Bedrock's and Vertex AI's SDKs (with their AWS and Google auth libraries, ~0.85 MB) load only for a run on them.
  esbuild.build({
    ...programs,
    entryPoints: { bedrock: 'src/engine/providers/bedrock.ts', vertex: 'src/engine/providers/vertex.ts' },
    outdir: 'dist',
  }),
  esbuild.build({ ...common, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist', external: ['vscode'] }),
];
if (tests) {
  // From scratch: a test moved or deleted in test/ must not go on running from its old bundle (mocha runs every
  // out/test/**/*.test.js).
  rmSync(join('out', 'test'), { recursive: true, force: true });
  const unit = walk('test', (p) => p.endsWith('.test.ts') && !p.startsWith(join('test', 'integration')));
  // esbuild stays external: a test builds a variant of the CLI with it; typescript and eslint too: tests read
  // src/'s imports with the one's parser and lint planted imports with the other.
  builds.push(
    esbuild.build({
      ...common,
      entryPoints: [
        ...unit,
        'bench/run.ts',
        'bench/cache.ts',
        'bench/startup.ts',
        'bench/step0.ts',
        'bench/window.ts',
        'bench/bigFile.ts',
        'bench/scale.ts',
        'bench/secrets.ts',
        'bench/providers.ts',
        'bench/promptShare.ts',
      ],
      outdir: 'out',
      outbase: '.',
      sourcemap: true,
      external: ['esbuild', 'typescript', 'eslint'],
    }),
  );
  // bench:startup's floor: the SDK alone, bundled and started as the CLI is.
  builds.push(
    esbuild.build({
      ...programs,
      entryPoints: { 'sdk-only.bundle': 'bench/floor/sdkOnly.ts' },
      outdir: 'out/bench/floor',
    }),
    esbuild.build({ ...common, entryPoints: { start: 'bench/floor/start.ts' }, outdir: 'out/bench/floor' }),
  );
  const integration = walk(join('test', 'integration'), (p) => p.endsWith('.ts'));
  if (integration.length) {
    builds.push(
      esbuild.build({
        ...common,
        entryPoints: integration,
        outdir: 'out',
        outbase: '.',
        sourcemap: true,
        external: ['vscode', 'mocha', '@vscode/test-electron'],
      }),
    );
  }
}
await Promise.all(builds);
chmodSync('dist/cli.js', 0o755);
// The syntax-tree finder's runtime and grammars, loaded at run time from dist/tree-sitter/ (see src/scope/syntax/grammars.ts).
const wasm = 'node_modules/@vscode/tree-sitter-wasm/wasm';
const grammars = new Set(Object.values(JSON.parse(readFileSync('src/scope/syntax/grammars.json', 'utf8'))));
mkdirSync('dist/tree-sitter', { recursive: true });
for (const file of ['tree-sitter.wasm', ...[...grammars].map((g) => `tree-sitter-${g}.wasm`)])
  copyFileSync(join(wasm, file), join('dist/tree-sitter', file));
await writeRulePages();

/**
 * The page per rule that diagnostics link to (media/rules/, shipped in the .vsix and linked from SARIF),
 * rendered from the catalog in src/model/rules.ts on every build, so the two cannot drift apart.
 */
async function writeRulePages() {
  const catalog = await esbuild.build({
    entryPoints: ['src/model/rules.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    logLevel: 'warning',
  });
  const { RULES, renderRulePage, rulePageName } = await import(
    `data:text/javascript;base64,${Buffer.from(catalog.outputFiles[0].text).toString('base64')}`
  );
  mkdirSync(join('media', 'rules'), { recursive: true });
  for (const rule of RULES) writeFileSync(join('media', 'rules', rulePageName(rule.id)), renderRulePage(rule));
}
