/**
 * What a reader may see of the disk. One rule decides it for Step 0, the sub-agents' tools, the prompt
 * builders and the context-file loader: a path is readable only when its real path (after every symlink)
 * lies inside a review root, it is a regular file, and Step 0 would not exclude it. The rule is built in
 * src/scope/ (which owns the exclusion rules) and handed to the engine by src/app/ as this interface, so
 * the engine applies Step 0's rules without depending on Step 0.
 */
import { sep } from 'node:path';

export interface FileAccess {
  /** Where relative paths start; paths come back relative to it, with forward slashes. */
  readonly cwd: string;
  /** The text of a readable file, or throws AccessDenied saying why not (safe to show a model). */
  read(path: string): Promise<string>;
  /** The visible entries of a folder inside the roots, sorted; folders end with "/". */
  list(path: string): Promise<string[]>;
  /** Every file a search may look into (cwd-relative), roots in order; the content rule still applies on read. */
  files(): AsyncIterable<string>;
}

/** A refusal whose message names the path and the reason, never any of the file's content. `missing`: there is no such file. */
export class AccessDenied extends Error {
  readonly missing: boolean;

  constructor(message: string, o: { missing?: boolean } = {}) {
    super(message);
    this.missing = o.missing ?? false;
  }
}

/** True when `real` is `root` or lies below it (both real, absolute paths). */
export function isInside(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** For sub-agents that read nothing from disk (a judge comparing records): every path is refused. */
export function noAccess(cwd: string): FileAccess {
  const refuse = (path: string) => Promise.reject(new AccessDenied(`"${path}" is not readable in this call`));
  return { cwd, read: refuse, list: refuse, files: async function* () {} };
}
