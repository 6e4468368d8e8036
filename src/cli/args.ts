/** Parses and checks `skeptic review` / `skeptic plan` arguments (the key comes from the environment). */
import { parseArgs } from 'node:util';
import type { ScopeSpec } from '../app/scope';
import { resolveStepModels, STAGED_STEPS, type StagedStep } from '../engine/models';
import { UsageError } from './usage';

export interface ReviewArgs {
  scope: ScopeSpec;
  includeUntracked: boolean;
  force: boolean;
  /** Ask before running when the estimate exceeds this many model calls. */
  confirmOver: number;
  out?: string;
  json?: string;
  models: Record<StagedStep, string>;
  concurrency: number;
  timeoutMs: number;
  effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max';
  excludes: string[];
  contextFiles: string[];
  yes: boolean;
  help: boolean;
}

const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export const DEFAULT_CONFIRM_OVER = 300;

export function parseReviewArgs(argv: string[]): ReviewArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        out: { type: 'string' },
        json: { type: 'string' },
        model: { type: 'string' },
        'step-model': { type: 'string', multiple: true },
        concurrency: { type: 'string' },
        timeout: { type: 'string' },
        effort: { type: 'string' },
        exclude: { type: 'string', multiple: true },
        'context-file': { type: 'string', multiple: true },
        yes: { type: 'boolean', short: 'y' },
        changes: { type: 'boolean' },
        staged: { type: 'boolean' },
        base: { type: 'string' },
        pr: { type: 'string' },
        'no-untracked': { type: 'boolean' },
        force: { type: 'boolean' },
        'confirm-over': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  if (v.out !== undefined && !v.out.endsWith('.md')) throw new UsageError(`--out must name a .md file, got "${v.out}"`);
  const effort = v.effort;
  if (effort !== undefined && !(EFFORTS as readonly string[]).includes(effort)) throw new UsageError(`--effort must be one of ${EFFORTS.join(', ')}`);
  return {
    scope: scopeOf(parsed.positionals, v),
    includeUntracked: !v['no-untracked'],
    force: v.force ?? false,
    confirmOver: wholeNumber('--confirm-over', v['confirm-over'], DEFAULT_CONFIRM_OVER, 0, 1_000_000),
    ...(v.out !== undefined ? { out: v.out } : {}),
    ...(v.json !== undefined ? { json: v.json } : {}),
    models: resolveStepModels(nonEmpty('--model', v.model), parseStepModels(v['step-model'] ?? [])),
    concurrency: wholeNumber('--concurrency', v.concurrency, 8, 1, 64),
    timeoutMs: wholeNumber('--timeout', v.timeout, 300, 1, 3600) * 1000,
    ...(effort ? { effort: effort as ReviewArgs['effort'] } : {}),
    excludes: v.exclude ?? [],
    contextFiles: v['context-file'] ?? [],
    yes: v.yes ?? false,
    help: v.help ?? false,
  };
}

function nonEmpty(flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} needs a value`);
  return value;
}

function wholeNumber(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, got "${raw}"`);
  return n;
}

function parseStepModels(pairs: string[]): Partial<Record<StagedStep, string>> {
  const out: Partial<Record<StagedStep, string>> = {};
  for (const pair of pairs) {
    const [step, model] = pair.split('=', 2);
    if (!STAGED_STEPS.includes(step as StagedStep) || !model) {
      throw new UsageError(`--step-model takes STEP=ID with STEP one of ${STAGED_STEPS.join(', ')}, got "${pair}"`);
    }
    out[step as StagedStep] = model;
  }
  return out;
}

function scopeOf(paths: string[], v: { changes?: boolean; staged?: boolean; base?: string; pr?: string }): ScopeSpec {
  const chosen = [v.changes && '--changes', v.staged && '--staged', v.base !== undefined && '--base', v.pr !== undefined && '--pr'].filter(Boolean);
  if (chosen.length > 1) throw new UsageError(`${chosen.join(' and ')} cannot be combined; choose one change scope`);
  if (chosen.length === 1 && paths.length > 0) throw new UsageError(`${chosen[0]} reviews a change; it takes no paths (got ${paths.join(' ')})`);
  if (v.changes) return { kind: 'changes' };
  if (v.staged) return { kind: 'staged' };
  if (v.base !== undefined) return { kind: 'branch', base: nonEmpty('--base', v.base)! };
  if (v.pr !== undefined) return { kind: 'pr', number: wholeNumber('--pr', v.pr, 0, 1, Number.MAX_SAFE_INTEGER) };
  return { kind: 'paths', paths };
}
