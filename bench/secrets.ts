/**
 * `npm run bench:secrets [-- DIR …]`: how many files of real installed trees Step 0 would exclude as secrets
 * by content (the false-positive rate, since installed packages hold few real secrets), by secretlint's
 * preset alone (as before Skeptic's own rules) and with Skeptic's own rules, per rule, with the files named.
 * Default trees: this repository's node_modules/*\/src, Python's site-packages and /usr/include. Text files
 * up to 4 MiB (Step 0's ceiling), NUL-free and valid UTF-8, as Step 0 reads them. Prints; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { isUtf8 } from 'node:buffer';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { lintSource } from '@secretlint/core';
import { MAX_FILE_BYTES } from '../src/model/fileSize';
import { mayHoldSecret } from '../src/scope/secretAnchors';
import { PRESET_CONFIG, SCANNED_NAME } from '../src/scope/secretContent';
import { findOwnSecret } from '../src/scope/secretRules';

const REPO = resolve(__dirname, '../..');

async function defaultTrees(): Promise<string[]> {
  const modules = join(REPO, 'node_modules');
  const srcs: string[] = [];
  for (const e of await readdir(modules)) {
    const names = e.startsWith('@') ? (await readdir(join(modules, e))).map((n) => join(e, n)) : [e];
    for (const n of names)
      if ((await stat(join(modules, n, 'src')).catch(() => null))?.isDirectory()) srcs.push(join(modules, n, 'src'));
  }
  const site = execFileSync('python3', ['-c', 'import site; print("\\n".join(site.getsitepackages()))'], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  return [...srcs, ...site, '/usr/include'];
}

async function* files(dir: string): AsyncGenerator<string> {
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = join(dir, e.name);
    if (e.isDirectory() && e.name !== '__pycache__') yield* files(full);
    else if (e.isFile() && !e.name.endsWith('.pyc')) yield full;
  }
}

async function presetKind(text: string): Promise<string | null> {
  if (!mayHoldSecret(text)) return null;
  const r = await lintSource({
    source: { filePath: SCANNED_NAME, content: text, contentType: 'text' },
    options: { config: PRESET_CONFIG, maskSecrets: true },
  });
  return r.messages.find((m) => m.type === 'message')?.messageId ?? null;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const trees = args.length ? args : await defaultTrees();
  const groups = new Map<string, string[]>();
  for (const t of trees) {
    const label = t.includes('node_modules')
      ? 'node_modules/*/src'
      : t.includes('-packages')
        ? 'python site-packages'
        : t;
    groups.set(label, [...(groups.get(label) ?? []), t]);
  }
  for (const [label, dirs] of groups) {
    let scanned = 0;
    const preset: string[] = [];
    const own = new Map<string, string[]>();
    let union = 0;
    for (const dir of dirs) {
      for await (const file of files(dir)) {
        const st = await stat(file).catch(() => null);
        if (!st || st.size > MAX_FILE_BYTES) continue;
        const bytes = await readFile(file);
        if (bytes.includes(0) || !isUtf8(bytes)) continue;
        scanned++;
        const text = bytes.toString('utf8');
        const p = await presetKind(text);
        const o = findOwnSecret(text);
        const shown = `${relative(REPO, file).startsWith('..') ? file : relative(REPO, file)}`;
        if (p) preset.push(`${shown} (${p})`);
        if (o) own.set(o.kind, [...(own.get(o.kind) ?? []), `${shown}:${o.line}`]);
        if (p || o) union++;
      }
    }
    const pct = (n: number) => `${((100 * n) / Math.max(1, scanned)).toFixed(2)}%`;
    console.log(`\n${label}: ${scanned} text files in ${dirs.length} tree(s)`);
    console.log(`  preset alone (before): ${preset.length} excluded as secrets (${pct(preset.length)})`);
    console.log(`  preset + own rules (after): ${union} excluded as secrets (${pct(union)})`);
    for (const f of preset) console.log(`    preset  ${f}`);
    for (const [kind, hits] of [...own].sort((a, b) => b[1].length - a[1].length)) {
      console.log(`  ${kind}: ${hits.length}`);
      for (const h of hits) console.log(`    ${h}`);
    }
  }
}

void main();
