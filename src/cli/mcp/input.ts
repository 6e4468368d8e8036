/**
 * The MCP tools' arguments: zod schemas the SDK checks each call against (and lists as JSON Schema), and
 * what they mean as a review's scope. Unknown arguments are refused, so a misspelt one is named, not ignored.
 */
import { z } from 'zod';
import type { TargetScope } from '../../app/choices';
import { DISMISSAL_REASONS } from '../../model/dismissals';

/** A tool argument the schema cannot judge alone (a path outside the roots, a scope without its base): named in the message. */
export class ToolInputError extends Error {
  constructor(
    readonly argument: string,
    problem: string,
  ) {
    super(`Invalid argument ${argument}: ${problem}`);
  }
}

const PRIORITIES = ['must_fix', 'should_fix', 'nice_to_have'] as const;

/** Where a call works, and what it reviews: the CLI's scopes. */
export const scopeShape = {
  root: z
    .string()
    .min(1)
    .optional()
    .describe("the folder to work in, inside the client's roots (default: the first root, else the working folder)"),
  scope: z
    .enum(['auto', 'paths', 'uncommitted', 'staged', 'branch', 'pr'])
    .optional()
    .describe(
      'auto (default): the open pull request, else the uncommitted changes, else the folder; paths: the given files and folders; uncommitted: git diff HEAD plus untracked files; staged; branch: the changes since `base`; pr: pull request `pr` (gh)',
    ),
  paths: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe('files and folders, relative to root (implies scope paths)'),
  base: z.string().min(1).optional().describe('the ref a branch scope is compared with (implies scope branch)'),
  pr: z.number().int().positive().optional().describe('a pull request number (implies scope pr)'),
  mode: z.enum(['staged', 'lenses']).optional().describe('staged (default): the five-step review; lenses: faster'),
};

export const ReviewInput = z.strictObject({
  ...scopeShape,
  max_calls: z.number().int().min(1).optional().describe('stop after this many model calls, with a partial result'),
  max_cost_usd: z
    .number()
    .positive()
    .optional()
    .describe('a dollar ceiling: refused at once if the cheapest plan is over it, else stopped before passing it'),
  min_priority: z.enum(PRIORITIES).optional().describe('return only findings of this priority or higher'),
});
export type ReviewInput = z.infer<typeof ReviewInput>;

export const PlanInput = z.strictObject(scopeShape);
export type PlanInput = z.infer<typeof PlanInput>;

export const FindingsInput = z.strictObject({
  ...scopeShape,
  min_priority: ReviewInput.shape.min_priority,
});
export type FindingsInput = z.infer<typeof FindingsInput>;

export const DismissInput = z.strictObject({
  root: scopeShape.root,
  fingerprint: z
    .string()
    .regex(/^[0-9a-f]{8,64}$/, 'a fingerprint is hexadecimal, as a review returns it')
    .describe("a finding's fingerprint, from review or findings"),
  reason: z.enum(DISMISSAL_REASONS).describe('why it is dismissed'),
  note: z.string().max(500).optional().describe('a short note for whoever reads the dismissal'),
  who: z
    .enum(['team', 'user'])
    .optional()
    .describe(
      "team (default): the committed .skeptic/dismissed.json the editor's Dismiss… writes; user: this user's own list",
    ),
});
export type DismissInput = z.infer<typeof DismissInput>;

/** The scope the arguments name; a contradiction or a missing companion argument is named. */
export function targetScope(input: Pick<PlanInput, 'scope' | 'paths' | 'base' | 'pr'>): TargetScope {
  const implied = input.paths ? 'paths' : input.base ? 'branch' : input.pr ? 'pr' : undefined;
  const scope = input.scope ?? implied ?? 'auto';
  const given = (['paths', 'base', 'pr'] as const).filter((a) => input[a] !== undefined);
  const needs = { paths: 'paths', branch: 'base', pr: 'pr' } as const;
  const wanted = scope in needs ? needs[scope as keyof typeof needs] : undefined;
  const extra = given.find((a) => a !== wanted);
  if (extra) throw new ToolInputError(extra, `scope ${scope} takes no ${extra}`);
  if (wanted && input[wanted] === undefined) throw new ToolInputError(wanted, `scope ${scope} needs ${wanted}`);
  switch (scope) {
    case 'paths':
      return { kind: 'paths', paths: input.paths! };
    case 'uncommitted':
      return { kind: 'changes' };
    case 'staged':
      return { kind: 'staged' };
    case 'branch':
      return { kind: 'branch', base: input.base! };
    case 'pr':
      return { kind: 'pr', number: input.pr! };
    default:
      return { kind: 'auto' };
  }
}
