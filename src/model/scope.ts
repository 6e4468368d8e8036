/**
 * What a review covers, as the user asked for it: paths (files and folders) or a change. Declared once, with
 * zod/mini so the extension host can check it without the full zod in its bundle.
 */
import * as z from 'zod/mini';

export const ScopeSpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('paths'), paths: z.array(z.string()) }),
  /** Uncommitted: git diff HEAD (staged and unstaged) plus untracked files git does not ignore. */
  z.object({ kind: z.literal('changes') }),
  z.object({ kind: z.literal('staged') }),
  /** Committed changes since the merge-base of `base` and HEAD. */
  z.object({ kind: z.literal('branch'), base: z.string().check(z.minLength(1)) }),
  /** A GitHub pull request, through the gh CLI. */
  z.object({ kind: z.literal('pr'), number: z.int().check(z.positive()) }),
]);
export type ScopeSpec = z.infer<typeof ScopeSpec>;

/** A change scope: everything but paths. */
export type ChangeScope = Exclude<ScopeSpec, { kind: 'paths' }>;
