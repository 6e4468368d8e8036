/** src/cli.ts bundled again as esbuild.mjs bundles it, with a plugin that changes what a test needs. */
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { REPO } from './cli';

/** Returns the bundle's path; its grammars sit beside it, as dist/cli.bundle.js finds them. */
export async function bundleCli(plugin: Plugin): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'skeptic-cli-'));
  const outfile = join(dir, 'cli.js');
  await build({
    entryPoints: [join(REPO, 'src/cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'error',
    loader: { '.md': 'text' },
    alias: { '@secretlint/profiler': join(REPO, 'src/scope/secretlintProfiler.ts') },
    plugins: [plugin],
  });
  await cp(join(REPO, 'dist/tree-sitter'), join(dir, 'tree-sitter'), { recursive: true });
  return outfile;
}

/** The CLI built again with one prompt file's text changed (`file` under prompts/), as a release that edits it would ship. */
export function bundleCliWithPrompt(file: string, edit: (text: string) => string): Promise<string> {
  return bundleCli({
    name: 'edit-prompt',
    setup: (b) =>
      b.onLoad({ filter: new RegExp(`prompts[\\\\/]${file.replace('.', '\\.')}$`) }, async (args) => ({
        contents: edit(await readFile(args.path, 'utf8')),
        loader: 'text',
      })),
  });
}
