/**
 * The one confinement rule (see src/model/access.ts), built from Step 0's exclusion rules: Step 0 judges
 * every candidate with `judge`, and the same object answers the sub-agents' tools and the prompt builders.
 * A path is judged by where it really is (after every symlink) and by the name it was reached through.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { AccessDenied, isInside, type FileAccess } from '../model/access';
import { readRegularFile, RefusedRead } from '../io/regularFile';
import { MAX_FILE_BYTES, OUTLINE_ABOVE_BYTES } from '../model/fileSize';
import { extensionOf } from '../model/languages';
import { DirCache } from './dirCache';
import { lineCount } from '../model/lines';
import {
  BUILD_DIRS,
  compiledEvidence,
  contentTraits,
  excludeByContent,
  excludeByPath,
  hasSourceMapComment,
  VENDOR_DIRS,
  type ExclusionReason,
} from './exclusions';
import { blobId, Step0Facts, type ContentFacts } from './facts';
import { findSecret, SECRET_RULES_VERSION } from './secretContent';
import { grammarFor } from './syntax/grammars';
import { planFunctions } from './syntax/quickCount';

/** The source-map check looks at this much of the end of a file. */
const TAIL_BYTES = 1024;

export interface AccessOptions {
  cwd: string;
  /** The review roots, relative to cwd (or absolute). */
  roots: string[];
  /** Globs (relative to cwd) of files to leave out. */
  excludes?: string[];
  /** Larger files are left out as oversized. */
  maxBytes?: number;
  /** Judge every file as one the user named (context files): no folder or generated-file rules. */
  named?: boolean;
  /** What is known about contents, shared by every reader of one job; absent: this reader's own, kept nowhere. */
  facts?: Step0Facts;
  /**
   * Count each file's functions while its text is read, with the quick finder or the regex fallback
   * (scope/syntax/quickCount.ts): a plan of a large scope counts them so (app/inventories.ts), and need not
   * read any file a second time.
   */
  quickCount?: boolean;
}

/** `text` is there when the file was read (always, unless judged by a known content id); `id` is its content's. */
export type Verdict =
  { ok: true; id: string; text?: string } | { ok: false; reason: ExclusionReason; detail?: string; missing?: true };
type Refusal = Extract<Verdict, { ok: false }>;

interface Root {
  real: string;
  isFile: boolean;
}

/** A ReviewAccess as `open` settles it: every option resolved to its value. */
interface AccessInit {
  cwd: string;
  roots: Root[];
  isUserExcluded: (path: string) => boolean;
  maxBytes: number;
  named: boolean;
  facts: Step0Facts;
  quickCount: boolean;
}

export class ReviewAccess implements FileAccess {
  readonly cwd: string;
  private readonly roots: Root[];
  private readonly isUserExcluded: (path: string) => boolean;
  private readonly maxBytes: number;
  private readonly named: boolean;
  readonly facts: Step0Facts;
  private readonly quickCount: boolean;

  private constructor(init: AccessInit) {
    ({
      cwd: this.cwd,
      roots: this.roots,
      isUserExcluded: this.isUserExcluded,
      maxBytes: this.maxBytes,
      named: this.named,
      facts: this.facts,
      quickCount: this.quickCount,
    } = init);
  }

  /**
   * Folder listings, each read once: the compiled-file evidence (a source map or the TypeScript beside a .js)
   * and Step 0's companion lookups share them.
   */
  get dirs(): DirCache {
    return (this.dirCache ??= new DirCache(this.cwd));
  }
  private dirCache: DirCache | undefined;
  /** Folders' real paths, for the files git lists (listedRealpath). */
  private readonly realFolders = new Map<string, Promise<string | null>>();

  static async open(opts: AccessOptions): Promise<ReviewAccess> {
    const roots: Root[] = [];
    for (const r of opts.roots) {
      const real = await realpath(resolve(opts.cwd, r)).catch(() => null);
      const st = real && (await stat(real).catch(() => null));
      if (real && st) roots.push({ real, isFile: st.isFile() });
    }
    const excluded = opts.excludes?.length ? picomatch(opts.excludes, { dot: true }) : () => false;
    return new ReviewAccess({
      cwd: opts.cwd,
      roots,
      isUserExcluded: excluded,
      maxBytes: opts.maxBytes ?? MAX_FILE_BYTES,
      named: opts.named ?? false,
      facts: opts.facts ?? new Step0Facts(),
      quickCount: opts.quickCount ?? false,
    });
  }

  /**
   * Step 0's verdict on the file at `abs` (the path it was found by): its text, or why it is left out. With
   * `known`, the blob id git gives its unmodified content (a regular file, as git's listing found it), what the
   * store learnt about that content stands in for reading it (the verdict then has no text); every other
   * verdict is reached on the bytes just read.
   */
  async judge(abs: string, known?: string): Promise<Verdict> {
    const real = await (known === undefined ? realpath(abs).catch(() => null) : this.listedRealpath(abs));
    if (!real) return { ok: false, reason: 'unreadable', detail: 'does not exist', missing: true };
    // Where it was reached: its folder resolved, its own name kept (a link's name is judged too). A path
    // that is its own real path was reached through no link at all.
    const reachedAt = real === abs ? real : join(await realpath(dirname(abs)).catch(() => dirname(abs)), basename(abs));
    const root = this.rootOf(real);
    if (!root)
      return { ok: false, reason: 'outside_roots', detail: 'a symbolic link leading outside the review roots' };
    const explicit = this.named || (root.isFile && root.real === real);
    // The name a link is reached by counts as much as the file it leads to (an innocent link to `.env`).
    const reached = this.rootOf(reachedAt);
    const byPath =
      excludeByPath(this.below(root, real), explicit) ??
      (reached && reachedAt !== real ? excludeByPath(this.below(reached, reachedAt), explicit) : null);
    if (byPath) return { ok: false, reason: byPath };
    if (this.isUserExcluded(this.shown(abs)) || this.isUserExcluded(this.shown(real)))
      return { ok: false, reason: 'user_exclude' };
    const stored = known === undefined ? undefined : await this.facts.store.get(known);
    if (known !== undefined && stored) {
      const refused = (await this.byContent(real, explicit, stored)) ?? this.bySecret(stored);
      if (refused) return refused;
      if (refused === null) {
        this.facts.judged(abs, known);
        return { ok: true, id: known };
      }
      // Not scanned under the current rules: read and scan it below.
    }
    let bytes: Buffer;
    try {
      bytes = await readRegularFile(real, this.maxBytes);
    } catch (err) {
      if (!(err instanceof RefusedRead)) throw err;
      return err.why === 'oversized'
        ? { ok: false, reason: 'oversized' }
        : { ok: false, reason: 'unreadable', detail: err.message };
    }
    const id = blobId(bytes);
    const text = bytes.toString('utf8');
    const facts = (await this.facts.store.get(id)) ?? learn(bytes, text, this.quickCount ? this.shown(abs) : undefined);
    const byContent = await this.byContent(real, explicit, facts);
    if (byContent) {
      await this.facts.store.add(id, facts);
      return byContent;
    }
    const secret =
      this.bySecret(facts) !== undefined ? facts.secret! : { rules: SECRET_RULES_VERSION, hit: await findSecret(text) };
    await this.facts.store.add(id, { ...facts, secret });
    const refused = this.bySecret({ secret });
    if (refused) return refused;
    this.facts.judged(abs, id);
    return { ok: true, id, text };
  }

  /**
   * The real path of a file git lists as unmodified, which the listing found to be a regular file, not a link
   * (scope/inventory.ts): its folder's real path and its own name. One realpath per folder instead of one per
   * file; only such files are judged this way, so every other read still resolves the whole path.
   */
  private async listedRealpath(abs: string): Promise<string | null> {
    const dir = dirname(abs);
    let real = this.realFolders.get(dir);
    if (!real) {
      real = realpath(dir).catch(() => null);
      this.realFolders.set(dir, real);
    }
    const folder = await real;
    return folder === null ? null : join(folder, basename(abs));
  }

  /** The refusal that the content's size and first and last bytes decide, or null when they let it through. */
  private async byContent(real: string, explicit: boolean, facts: ContentFacts): Promise<Refusal | null> {
    if (facts.bytes > this.maxBytes) return { ok: false, reason: 'oversized' };
    // Large files with a grammar are reviewed through an outline of their functions; without one they cannot be.
    if (facts.bytes > OUTLINE_ABOVE_BYTES && !grammarFor(extensionOf(real))) return { ok: false, reason: 'oversized' };
    const byContent = excludeByContent(facts, explicit);
    if (byContent) return { ok: false, reason: byContent };
    if (!explicit && (await this.isCompiled(real, facts.mapped))) return { ok: false, reason: 'compiled' };
    return null;
  }

  /** The secret scan's refusal, null when it found none, undefined when it has not run under the current rules. */
  private bySecret(facts: Pick<ContentFacts, 'secret'>): Refusal | null | undefined {
    if (facts.secret?.rules !== SECRET_RULES_VERSION) return undefined;
    const hit = facts.secret.hit;
    return hit ? { ok: false, reason: 'secret', detail: `${hit.kind} on line ${hit.line}` } : null;
  }

  /** The text of a readable file and its content id, or AccessDenied saying why not. */
  async readWithId(path: string): Promise<{ text: string; id: string }> {
    const verdict = await this.judge(resolve(this.cwd, path));
    if (verdict.ok && verdict.text !== undefined) return { text: verdict.text, id: verdict.id };
    if (verdict.ok) throw new AccessDenied(`"${path}" cannot be read`);
    throw new AccessDenied(`"${path}" ${refusal(verdict)}`, { missing: verdict.missing === true });
  }

  async read(path: string): Promise<string> {
    return (await this.readWithId(path)).text;
  }

  async list(path: string): Promise<string[]> {
    const real = await realpath(resolve(this.cwd, path)).catch(() => null);
    if (!real) throw new AccessDenied(`"${path}" does not exist`, { missing: true });
    const root = this.rootOf(real);
    if (!root) throw new AccessDenied(`"${path}" is outside the review roots`);
    if (!(await stat(real)).isDirectory()) throw new AccessDenied(`"${path}" is not a folder`);
    if (this.hiddenFolder(this.below(root, real)))
      throw new AccessDenied(`"${path}" is build output, vendored code or version-control data, and is not readable`);
    const entries = await readdir(real, { withFileTypes: true });
    const shown = await Promise.all(
      entries.map(async (e) => {
        const full = join(real, e.name);
        const target = e.isSymbolicLink() ? await realpath(full).catch(() => null) : full;
        const targetRoot = target && this.rootOf(target);
        if (!target || !targetRoot || e.name.includes('\uFFFD')) return null;
        const kind = e.isSymbolicLink() ? await stat(target).catch(() => null) : e;
        if (kind?.isDirectory()) return this.hiddenFolder(`${this.below(root, full)}/`) ? null : `${e.name}/`;
        if (!kind?.isFile()) return null;
        const hidden =
          excludeByPath(this.below(root, full), false) ?? excludeByPath(this.below(targetRoot, target), false);
        return hidden || this.isUserExcluded(this.shown(full)) ? null : e.name;
      }),
    );
    return shown.filter((n): n is string => n !== null).sort();
  }

  async *files(): AsyncGenerator<string> {
    const seen = new Set<string>();
    for (const root of this.roots) {
      if (root.isFile) {
        if (!seen.has(root.real)) yield this.shown(root.real);
        seen.add(root.real);
        continue;
      }
      for await (const file of this.walk(root, root.real)) {
        if (seen.has(file)) continue;
        seen.add(file);
        yield this.shown(file);
      }
    }
  }

  /** Regular files below `dir` by name, without following links (a search reads each through `read`). */
  private async *walk(root: Root, dir: string): AsyncGenerator<string> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(dir, e.name);
      if (e.isDirectory() && !this.hiddenFolder(`${this.below(root, full)}/`)) yield* this.walk(root, full);
      else if (e.isFile() && !excludeByPath(this.below(root, full), false) && !this.isUserExcluded(this.shown(full)))
        yield full;
    }
  }

  /** A declaration file or JavaScript beside its source map or the TypeScript it came from, or ending in a source-map comment. */
  private async isCompiled(real: string, mapped: boolean): Promise<boolean> {
    const evidence = compiledEvidence(basename(real));
    if (!evidence.length) return false;
    const dir = this.shown(dirname(real));
    for (const name of evidence) if (await this.dirs.isFile(dir === '.' ? name : `${dir}/${name}`)) return true;
    return mapped;
  }

  /** The deepest root holding `path`: the user's most specific choice decides the folder rules. */
  private rootOf(path: string): Root | undefined {
    return this.roots.filter((r) => isInside(path, r.real)).sort((a, b) => b.real.length - a.real.length)[0];
  }

  private below(root: Root, path: string): string {
    return root.isFile ? path.slice(path.lastIndexOf(sep) + 1) : relative(root.real, path).split(sep).join('/');
  }

  private shown(abs: string): string {
    const rel = relative(this.cwd, abs).split(sep).join('/');
    return rel === '' ? '.' : rel;
  }

  /** A folder below a root whose files Step 0 would all leave out: build output, vendored code, `.git`. */
  private hiddenFolder(belowRoot: string): boolean {
    const dirs = belowRoot.split('/').filter(Boolean);
    return dirs.some((d) => BUILD_DIRS.has(d) || VENDOR_DIRS.has(d));
  }
}

/**
 * What the checks need to know of a content, from its bytes (the secret scan apart: only reviewable files need
 * it); with `quickPath`, the path it was found by, a plan's count of its functions too (`planFunctions`).
 */
function learn(bytes: Buffer, text: string, quickPath?: string): ContentFacts {
  const traits = contentTraits(bytes);
  // Binary and generated content is left out of a review (./exclusions.ts): not worth a count.
  const counted = quickPath !== undefined && !traits.binary && !traits.generated;
  const functions = counted ? planFunctions(quickPath, text) : undefined;
  return {
    bytes: bytes.length,
    chars: text.length,
    lines: lineCount(text),
    ...traits,
    mapped: hasSourceMapComment(bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES))),
    ...(functions ? { functions } : {}),
  };
}

/** Why a file cannot be read, in words a model (or a user) can act on; never any of the content. */
function refusal(v: Refusal): string {
  switch (v.reason) {
    case 'outside_roots':
      return 'is outside the review roots';
    case 'secret':
      return `may hold secrets${v.detail ? ` (${v.detail})` : ''} and is not readable`;
    case 'oversized':
      return 'is too large to read';
    case 'unreadable':
      return v.detail ?? 'cannot be read';
    default:
      return `is excluded from the review (${v.reason.replace(/_/g, ' ')}) and is not readable`;
  }
}
