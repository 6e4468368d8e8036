/**
 * `skeptic hook install|uninstall`: a git hook (pre-push by default, or pre-commit) that runs `skeptic hook
 * run`. A hook Skeptic did not write is never overwritten: it is refused, or with `chain` kept beside ours
 * (`<hook>.before-skeptic`) and run first with the same arguments and input, under the hook's own name: hook
 * managers (husky v4 and v9) dispatch on `basename "$0"` and source helpers from `dirname "$0"`, so a shell
 * hook is run as `$0` itself. Uninstall removes only a hook whose content is exactly what install writes, and
 * puts a chained hook back. Install refuses a hooks folder git tracks (the hook would reach everyone's
 * clone) and a hook that is a link out of the repository (writing it would write outside).
 */
import { chmod, lstat, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { git } from '../io/git';
import { SetupError } from '../model/setup';

export const HOOKS = ['pre-push', 'pre-commit'] as const;
export type HookKind = (typeof HOOKS)[number];

const MARK_LINE = '# skeptic-hook: written by skeptic hook install; skeptic hook uninstall removes it';
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
    throw new SetupError(`${cwd} is not inside a git repository; a hook belongs to one`);
  });
  return resolve(cwd, dir.trim());
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A shell hook's interpreter (sh, bash, dash, zsh) from its first line, or null for any other program. */
function shellOf(hook: string): string | null {
  const first = hook.split('\n', 1)[0] ?? '';
  if (!first.startsWith('#!')) return 'sh';
  return /^#!\s*(?:\S*\/)?(?:env\s+)?(?:\S*\/)?(sh|bash|dash|zsh)(?:\s|$)/.exec(first)?.[1] ?? null;
}

/**
 * The hook's text. `run`: the quoted command line of `skeptic hook run`; `chained`: the interpreter of the
 * hook run first ('' for a program run as it is), or null for none.
 */
function hookText(kind: HookKind, run: string, chained: string | null): string {
  const lines = ['#!/bin/sh', MARK_LINE];
  // A shell hook runs with $0 its own name (a hook manager's dispatch needs it); a program gets its file.
  const first =
    chained === null ? null : chained ? `${chained} -c '. "$0${CHAINED}"' "$0" "$@"` : `"$0${CHAINED}" "$@"`;
  if (first === null) lines.push(`exec ${run} "$@"`);
  else if (kind === 'pre-push') {
    // Both hooks read the refs being pushed from stdin: each gets its own copy.
    lines.push(
      'input=$(cat)',
      `printf '%s\\n' "$input" | ${first} || exit $?`,
      `printf '%s\\n' "$input" | exec ${run} "$@"`,
    );
  } else lines.push(`${first} || exit $?`, `exec ${run} "$@"`);
  return lines.join('\n') + '\n';
}

/** Whether `text` is exactly a hook install writes (whatever its command), and with which chained interpreter. */
function ourHook(kind: HookKind, text: string): { chained: string | null } | null {
  const run = /^(?:printf '%s\\n' "\$input" \| )?exec (.+) "\$@"$/m.exec(text)?.[1];
  if (run === undefined) return null;
  for (const chained of [null, '', 'sh', 'bash', 'dash', 'zsh'])
    if (hookText(kind, run, chained) === text) return { chained };
  return null;
}

/** Refuses a hooks folder that git tracks, and a hook that is a link leading out of the repository. */
async function checkPlace(cwd: string, dir: string, path: string): Promise<void> {
  const top = await realpath((await git(['rev-parse', '--show-toplevel'], cwd)).trim());
  const tracked = (await git(['ls-files', '--', dir], cwd).catch(() => '')).trim();
  if (tracked)
    throw new SetupError(
      `${dir} is tracked by git (core.hooksPath): a hook written there would be committed to everyone's clone; install Skeptic through that folder's hook manager instead`,
    );
  const link = await lstat(path).then(
    (s) => s.isSymbolicLink(),
    () => false,
  );
  if (!link) return;
  const target = await realpath(path).catch(() => null);
  const inside = (p: string) => {
    const rel = relative(top, p);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  };
  const gitDir = await realpath(resolve(cwd, (await git(['rev-parse', '--git-common-dir'], cwd)).trim()));
  if (target === null || !(inside(target) || !relative(gitDir, target).startsWith('..')))
    throw new SetupError(
      `${path} is a link ${target === null ? 'to nothing' : `to ${target}`}, out of the repository: it is left alone, and nothing is written through it`,
    );
}

export async function installHook(cwd: string, o: HookOptions): Promise<string> {
  const dir = await hooksDir(cwd);
  const path = join(dir, o.kind);
  await checkPlace(cwd, dir, path);
  const current = await readFile(path, 'utf8').catch(() => null);
  const chained = `${path}${CHAINED}`;
  const ours = current === null ? null : ourHook(o.kind, current);
  let chain = ours?.chained ?? null;
  if (current !== null && !ours) {
    if (!o.chain)
      throw new SetupError(
        `${path} exists and is not Skeptic's; it is left alone (pass --chain to run it first, then Skeptic)`,
      );
    if (await exists(chained)) throw new SetupError(`${chained} exists already; move it away first`);
    await rename(path, chained);
    chain = shellOf(current) ?? '';
  }
  const run = [...o.command, 'hook', 'run', o.kind, ...o.runArgs].map(quote).join(' ');
  await writeFile(path, hookText(o.kind, run, chain), 'utf8');
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
    const ours = ourHook(kind, current);
    if (!ours) {
      out.push(`${path} is not Skeptic's (or was edited since): left alone`);
      continue;
    }
    await rm(path);
    out.push(`removed ${path}`);
    if (ours.chained !== null && (await exists(`${path}${CHAINED}`))) {
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
