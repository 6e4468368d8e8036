/** Why a file found under a review root is not reviewed. Each reason is counted and reported. */
import { basename } from 'node:path/posix';
import { isSecretFile } from '../model/secrets';

export type ExclusionReason =
  | 'build_output'
  | 'vendored'
  | 'generated'
  | 'lock_file'
  | 'binary'
  | 'oversized'
  | 'secret'
  | 'user_exclude'
  | 'review_report'
  /** A file Skeptic itself wrote (a report, --json, --sarif, --events), wherever it was written. */
  | 'skeptic_output'
  | 'unreadable'
  | 'symlink_loop'
  | 'non_utf8_name';

export const BUILD_DIRS = new Set(['dist', 'build', 'out', 'target', 'obj', 'coverage', '.next', '.nuxt', '__pycache__', '.pytest_cache', '.mypy_cache', '.tox', '.gradle', '.idea', '.vscode-test', '.cache', '.venv', 'venv', '.git', '.hg', '.svn']);
export const VENDOR_DIRS = new Set(['node_modules', 'vendor', 'third_party', 'third-party', 'external', 'bower_components', 'Pods']);

const LOCK_FILES = new Set(['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'Cargo.lock', 'poetry.lock', 'Pipfile.lock', 'uv.lock', 'Gemfile.lock', 'composer.lock', 'go.sum', 'mix.lock', 'flake.lock', 'packages.lock.json']);
const LOCK_PATTERN = /(\.lock|-lock\.(json|ya?ml))$/;

/** Dependency lock files: machine-written, never reviewed, not counted as changed lines. */
export function isLockFile(path: string): boolean {
  const name = basename(path);
  return LOCK_FILES.has(name) || LOCK_PATTERN.test(name);
}
const GENERATED_NAMES = [/\.min\.(js|css|mjs)$/, /\.(map|snap)$/, /\.pb\.(go|cc|h)$/, /_pb2(_grpc)?\.py$/, /\.g\.(dart|cs)$/, /\.designer\.cs$/, /\.generated\.\w+$/];
const BINARY_EXT = /\.(png|jpe?g|gif|bmp|ico|webp|tiff?|pdf|zip|gz|tgz|bz2|xz|7z|rar|jar|war|class|o|obj|a|so|dylib|dll|exe|wasm|woff2?|ttf|otf|eot|mp[34]|mov|avi|wav|flac|ogg|sqlite|db|bin|dat|pyc|vsix)$/i;
/** Marker comments tools write at the top of generated files. */
const GENERATED_HEADER = /(@generated\b|\bDO NOT EDIT\b|\bauto-?generated\b|\bthis (file|code) (is|was) (automatically |auto-)?generated\b)/i;

/**
 * Exclusions decided by the path alone. `path` is relative to the review root, so a folder the user chose
 * (even one named `dist`) is not excluded by its own name; `explicit` files (named by the user) skip the
 * folder and name rules.
 */
export function excludeByPath(path: string, explicit: boolean): ExclusionReason | null {
  if (isSecretFile(path)) return 'secret';
  if (BINARY_EXT.test(path)) return 'binary';
  if (explicit) return null;
  const dirs = path.split('/').slice(0, -1);
  if (dirs.some((d) => VENDOR_DIRS.has(d))) return 'vendored';
  if (dirs.some((d) => BUILD_DIRS.has(d))) return 'build_output';
  const name = basename(path);
  if (isLockFile(name)) return 'lock_file';
  // Skeptic's own reports (code-review-{scope}.md, -v2…): output of a review, not input to the next.
  if (/^code-review-.+\.md$/.test(name)) return 'review_report';
  if (GENERATED_NAMES.some((re) => re.test(name))) return 'generated';
  return null;
}

/** Exclusions decided by the first bytes: binary content, or a generated-file header in the first lines. */
export function excludeByContent(head: Buffer, explicit: boolean): ExclusionReason | null {
  if (head.includes(0)) return 'binary';
  if (!isUtf8(head)) return 'binary';
  if (explicit) return null;
  const firstLines = head.toString('utf8').split('\n', 5).join('\n');
  if (GENERATED_HEADER.test(firstLines)) return 'generated';
  // A minified bundle: one enormous line.
  if (head.length >= 4096 && !head.subarray(0, 4096).includes(0x0a)) return 'generated';
  return null;
}

function isUtf8(buf: Buffer): boolean {
  try {
    // A multi-byte character cut at the end of the sample is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, lastCompleteChar(buf)));
    return true;
  } catch {
    return false;
  }
}

function lastCompleteChar(buf: Buffer): number {
  let end = buf.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = buf[end - back]!;
    if ((byte & 0xc0) === 0xc0) return end - back; // a lead byte whose continuation may be cut
    if ((byte & 0x80) === 0) break;
  }
  return end;
}
