/**
 * `skeptic hook install|uninstall`: a git hook (pre-push by default, or pre-commit) that runs `skeptic hook
 * run`. A hook Skeptic did not write is never overwritten: it is refused, or with `chain` kept beside ours
 * (`<hook>.before-skeptic`) and run first with the same arguments and input. Uninstall removes only what
 * Skeptic wrote, and puts a chained hook back.
 */
import { chmod, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { git } from '../io/git';
import { ScopeError } from '../scope/inventory';

export const HOOKS = ['pre-push', 'pre-commit'] as const;
export type HookKind = (typeof HOOKS)[number];

/** The line that makes a hook Skeptic's. */
const MARK = '# skeptic-hook:';
const CHAINED = '.before-skeptic';

export interface HookOptions {
  kind: HookKind;
  chain: boolean;
  /** What `skeptic hook run` gets: --max-calls, --block-on. */
  runArgs: string[];
  /** How to start this CLI again: node and the script. */
  command: [string, string];
}

async function hooksDir(cwd: string): Promise<string> {
  const dir = await git(['rev-parse', '--git-path', 'hooks'], cwd).catch(() => {
    throw new ScopeError(`${cwd} is not inside a git repository; a hook belongs to one`);
  });
  return resolve(cwd, dir.trim());
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export async function installHook(cwd: string, o: HookOptions): Promise<string> {
  const path = join(await hooksDir(cwd), o.kind);
  const current = await readFile(path, 'utf8').catch(() => null);
  const chained = `${path}${CHAINED}`;
  let chain = current !== null && current.includes(MARK) ? current.includes(CHAINED) : false;
  if (current !== null && !current.includes(MARK)) {
    if (!o.chain)
      throw new ScopeError(
        `${path} exists and is not Skeptic's; it is left alone (pass --chain to run it first, then Skeptic)`,
      );
    if (await exists(chained)) throw new ScopeError(`${chained} exists already; move it away first`);
    await rename(path, chained);
    chain = true;
  }
  const run = [...o.command, 'hook', 'run', o.kind, ...o.runArgs].map(quote).join(' ');
  const lines = ['#!/bin/sh', `${MARK} written by skeptic hook install; skeptic hook uninstall removes it`];
  if (!chain) lines.push(`exec ${run} "$@"`);
  else if (o.kind === 'pre-push') {
    // Both hooks read the refs being pushed from stdin: each gets its own copy.
    lines.push(
      'input=$(cat)',
      `printf '%s\\n' "$input" | "$0${CHAINED}" "$@" || exit $?`,
      `printf '%s\\n' "$input" | exec ${run} "$@"`,
    );
  } else lines.push(`"$0${CHAINED}" "$@" || exit $?`, `exec ${run} "$@"`);
  await writeFile(path, lines.join('\n') + '\n', 'utf8');
  await chmod(path, 0o755);
  return path;
}

/** What was removed (and put back), one line each. */
export async function uninstallHook(cwd: string, kinds: readonly HookKind[]): Promise<string[]> {
  const dir = await hooksDir(cwd);
  const out: string[] = [];
  for (const kind of kinds) {
    const path = join(dir, kind);
    const current = await readFile(path, 'utf8').catch(() => null);
    if (current === null) continue;
    if (!current.includes(MARK)) {
      out.push(`${path} is not Skeptic's: left alone`);
      continue;
    }
    await rm(path);
    out.push(`removed ${path}`);
    if (await exists(`${path}${CHAINED}`)) {
      await rename(`${path}${CHAINED}`, path);
      out.push(`put back the hook it ran first: ${path}`);
    }
  }
  return out;
}

/** A ref being pushed, as git gives it to pre-push on stdin. */
export interface PushedRef {
  localRef: string;
  localSha: string;
  remoteSha: string;
}

export function parsePushInput(text: string): PushedRef[] {
  return text
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((p) => p.length === 4)
    .map(([localRef, localSha, , remoteSha]) => ({ localRef: localRef!, localSha: localSha!, remoteSha: remoteSha! }));
}

const ZERO = /^0+$/;

/**
 * Where the review of a push starts: what the remote has, or, for a new branch, the parent of the first
 * commit no remote has. Null when there is nothing new (or only a deletion).
 */
export async function pushBase(cwd: string, ref: PushedRef): Promise<string | null> {
  if (ZERO.test(ref.localSha)) return null;
  if (!ZERO.test(ref.remoteSha)) {
    const known = await git(['cat-file', '-e', `${ref.remoteSha}^{commit}`], cwd).then(
      () => true,
      () => false,
    );
    if (known) return ref.remoteSha;
  }
  const fresh = (await git(['rev-list', '--reverse', ref.localSha, '--not', '--remotes'], cwd))
    .split('\n')
    .filter(Boolean);
  if (!fresh.length) return null;
  return git(['rev-parse', '--verify', '-q', `${fresh[0]}^`], cwd).then(
    (s) => s.trim(),
    () => null,
  );
}

/** The checked-out commit ('' before the first commit). */
export function headCommit(cwd: string): Promise<string> {
  return git(['rev-parse', '--verify', '-q', 'HEAD'], cwd).then(
    (s) => s.trim(),
    () => '',
  );
}
