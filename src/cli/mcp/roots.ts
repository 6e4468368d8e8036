/**
 * Where an MCP tool call may look: the client's roots when it offers them (roots/list), else the server's
 * working folder. A review runs in one folder inside them, and every path it is given must lie inside that
 * folder, links resolved: nothing outside the roots is ever read.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ToolInputError } from './input';

/** How long a client may take to list its roots. */
const ROOTS_TIMEOUT_MS = 10_000;

/** The client's file roots, or `[fallback]` when it offers none. */
export async function rootsOf(server: Server, fallback: string): Promise<string[]> {
  if (!server.getClientCapabilities()?.roots) return [fallback];
  const { roots } = await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
  const folders = roots.filter((r) => r.uri.startsWith('file:')).map((r) => fileURLToPath(r.uri));
  return folders.length ? folders : [fallback];
}

/** True when `path` is `folder` or below it. */
function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The real path, or the path itself when it does not exist (yet): a missing path is the scope's to report. */
const real = (path: string) => realpath(path).catch(() => path);

/** The folder a call works in: `root` (inside one of the roots), else the first root. */
export async function workingFolder(roots: string[], root: string | undefined): Promise<string> {
  if (root === undefined) return roots[0]!;
  const wanted = await real(resolve(roots[0]!, root));
  for (const r of roots) if (inside(await real(r), wanted)) return wanted;
  throw new ToolInputError('root', `${root} is not inside the client's roots (${roots.join(', ')})`);
}

/** Each path as given, once it is known to lie inside `folder` (links resolved); else the argument's error. */
export async function checkPaths(folder: string, paths: string[]): Promise<string[]> {
  const base = await real(folder);
  for (const p of paths) {
    const abs = resolve(folder, p);
    if (!inside(folder, abs) || !inside(base, await real(abs)))
      throw new ToolInputError('paths', `${p} is outside the review's root ${folder}`);
  }
  return paths;
}
