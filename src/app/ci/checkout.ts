/**
 * The checked-out tree of a pull request's CI job: it must be the PR's head (review comments are placed
 * by the head's line numbers), and it needs the base's history for the merge-base GitHub diffs from. A
 * shallow checkout gets what is missing fetched. The lines GitHub takes review comments on are those of
 * the diff's hunks on the right side, context included (GitHub's diff has 3 lines of context).
 */
import { git, GitError } from '../../io/git';
import { parseDiff } from '../../scope/diff';
import { SetupError } from '../../model/setup';

export interface PullRequestCheckout {
  /** Where GitHub's "files changed" starts: the merge-base of base and head. */
  mergeBase: string;
  /** cwd's path inside the repository ('' at the top, else ending in '/'): GitHub's paths start at the top. */
  prefix: string;
  /** Per top-relative path, the right-side lines of its hunks, where a review comment may sit. */
  commentable: Map<string, Array<[number, number]>>;
}

export async function checkoutOf(cwd: string, baseSha: string, headSha: string): Promise<PullRequestCheckout> {
  const head = await git(['rev-parse', 'HEAD'], cwd).then(
    (s) => s.trim(),
    (err: Error) => {
      throw new SetupError(`${cwd} is not a git checkout (${err.message}); add actions/checkout before skeptic ci`);
    },
  );
  if (head !== headSha) {
    throw new SetupError(
      `the checkout is at ${head.slice(0, 7)}, not the pull request's head ${headSha.slice(0, 7)}; check out the head (actions/checkout with ref: \${{ github.event.pull_request.head.sha }}) so comments land on the right lines`,
    );
  }
  const mergeBase = await findMergeBase(cwd, baseSha);
  const prefix = (await git(['rev-parse', '--show-prefix'], cwd)).trim();
  const diff = await git(
    [
      '-c',
      'core.quotePath=false',
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '-U3',
      '--find-renames',
      mergeBase,
      'HEAD',
    ],
    cwd,
  );
  const commentable = new Map<string, Array<[number, number]>>();
  for (const file of parseDiff(diff)) if (file.newPath && file.hunks.length) commentable.set(file.newPath, file.hunks);
  return { mergeBase, prefix, commentable };
}

/** The merge-base, fetching the base commit and deepening a shallow history until one is found. */
async function findMergeBase(cwd: string, baseSha: string): Promise<string> {
  const tryBase = () =>
    git(['merge-base', baseSha, 'HEAD'], cwd).then(
      (s) => s.trim(),
      () => '',
    );
  let found = (await hasCommit(cwd, baseSha)) ? await tryBase() : '';
  if (found) return found;
  const fetch = (...args: string[]) =>
    git(['fetch', '--no-tags', '--no-recurse-submodules', '--quiet', ...args, 'origin', baseSha], cwd).catch(
      (err: GitError) => {
        throw new SetupError(`cannot fetch the pull request's base ${baseSha.slice(0, 7)} from origin: ${err.message}`);
      },
    );
  const shallow = (await git(['rev-parse', '--is-shallow-repository'], cwd)).trim() === 'true';
  // Deepen step by step: most pull requests branch off recently, and a full history can be large.
  for (const depth of shallow ? [50, 500] : []) {
    await fetch(`--deepen=${depth}`);
    if ((found = await tryBase())) return found;
  }
  await fetch(...(shallow ? ['--unshallow'] : []));
  if ((found = await tryBase())) return found;
  throw new SetupError(
    `the pull request's base ${baseSha.slice(0, 7)} and head have no common ancestor in this checkout`,
  );
}

async function hasCommit(cwd: string, sha: string): Promise<boolean> {
  return git(['cat-file', '-e', `${sha}^{commit}`], cwd).then(
    () => true,
    () => false,
  );
}
