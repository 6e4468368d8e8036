// Bundles the extension, the worker, the CLI and the fake Messages API server into dist/;
// with --tests, also every test and benchmark into out/ (prompts load through the same text loader).
import * as esbuild from 'esbuild';
import { chmodSync, readdirSync, statSync } from 'node:fs';
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
};

// test/fixtures holds code under review, not tests.
function walk(dir, pick) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (p === join('test', 'fixtures')) return [];
    return statSync(p).isDirectory() ? walk(p, pick) : pick(p) ? [p] : [];
  });
}

const builds = [
  esbuild.build({
    ...common,
    entryPoints: { cli: 'src/cli.ts', worker: 'src/worker.ts', 'fake-anthropic': 'test/fake-anthropic/main.ts' },
    outdir: 'dist',
    banner: { js: '#!/usr/bin/env node' },
  }),
];
if (tests) {
  const entries = [...walk('test', (p) => p.endsWith('.test.ts')), 'bench/run.ts'];
  builds.push(esbuild.build({ ...common, entryPoints: entries, outdir: 'out', outbase: '.', sourcemap: true }));
}
await Promise.all(builds);
chmodSync('dist/cli.js', 0o755);
