/**
 * `skeptic plan`: Step 0 and the cost estimate, without an API key or any model call. With `--json` (a flag
 * here, unlike review's `--json FILE`), the same as one JSON record on stdout.
 */
import { formatUsd, PRICES_AS_OF, type PriceOverrides } from '../model/pricing';
import { loadPrices } from './prices';
import { estimateLensRun, estimateRun, type Estimate, type LensEstimate } from '../app/estimate';
import { inventoriesOf, type Inventories } from '../app/inventories';
import { lensRequest, prepareJob, type PreparedJob } from '../app/job';
import { repositoryStateDir } from '../app/state';
import { planJson } from '../app/plan';
import { parseReviewArgs, type ReviewArgs } from './args';
import type { CliIo } from './review';
import { EXIT, USAGE } from './usage';

const EXAMPLES_PER_REASON = 10;

export async function planCommand(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const args = parseReviewArgs(argv.filter((a) => a !== '--json'));
  if (args.help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  const prepared = await prepareJob({ cwd: io.cwd, scope: args.scope, excludes: args.excludes, contextFiles: args.contextFiles, includeUntracked: args.includeUntracked, ...(args.lens ? { lens: args.lens } : {}), ...(args.cacheDir ? { cacheDir: args.cacheDir } : {}), stateDir: await repositoryStateDir(io.cwd, io.env) });
  const inventories = await inventoriesOf(io.cwd, prepared.inventory.discovery.file_entries);
  const prices = args.mode === 'lenses' ? undefined : await loadPrices(io.cwd, args.pricesFile);
  if (json) {
    const est = args.mode === 'lenses' ? await lensEstimate(io.cwd, args, prepared) : await stagedEstimate(io.cwd, args, prepared, prices);
    io.stdout.write(JSON.stringify(planJson(prepared, inventories, est), null, 2) + '\n');
    return EXIT.ok;
  }
  const { discovery, excluded } = prepared.inventory;
  const out: string[] = [`Scope: ${prepared.scope.description}`];
  if (prepared.scope.changes) out.push(`Changed lines: ${prepared.scope.changes.changedLines}${prepared.scope.skip ? ` — ${prepared.scope.skip}${args.force ? ' (forced)' : ''}` : ''}`);
  out.push(`${discovery.file_entries.length} files under review, ${prepared.companions} companions discovered.`);
  for (const e of discovery.file_entries) out.push(`  ${e.path}${functionCount(inventories, e.path)}${e.companion_path ? `  (companion ${e.companion_path})` : ''}`);

  const byReason = new Map<string, string[]>();
  for (const e of excluded) byReason.set(e.reason, [...(byReason.get(e.reason) ?? []), e.path]);
  out.push(`Excluded: ${excluded.length}`);
  for (const [reason, paths] of [...byReason].sort((a, b) => b[1].length - a[1].length)) {
    out.push(`  ${reason.replace(/_/g, ' ')}: ${paths.length}`);
    for (const p of paths.slice(0, EXAMPLES_PER_REASON)) out.push(`    ${p}`);
    if (paths.length > EXAMPLES_PER_REASON) out.push(`    … and ${paths.length - EXAMPLES_PER_REASON} more`);
  }
  for (const s of prepared.scope.changes?.skipped ?? []) out.push(`  not reviewed (${s.reason}): ${s.path}`);
  if (prepared.context.length) out.push(`Context files: ${prepared.context.map((c) => c.path).join(', ')}`);

  const est = args.mode === 'lenses' ? await lensLines(io.cwd, args, prepared, out) : await stagedLines(io.cwd, args, prepared, out, prices);
  if (est.calls > args.confirmOver) out.push(`A review of this scope asks for confirmation (over ${args.confirmOver} calls): pass --yes.`);
  io.stdout.write(out.join('\n') + '\n');
  return EXIT.ok;
}

const k = (n: number) => `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;

function functionCount(inventories: Inventories, path: string): string {
  const n = inventories.get(path)?.functions.length;
  return n === undefined ? '' : `  ${n} function${n === 1 ? '' : 's'}`;
}

const stagedEstimate = (cwd: string, args: ReviewArgs, prepared: PreparedJob, prices: PriceOverrides | undefined) =>
  estimateRun(cwd, prepared.inventory.discovery.file_entries, prepared.context, prepared.scope.changedRanges, { models: args.models, ...(prices ? { prices } : {}) });
const lensEstimate = (cwd: string, args: ReviewArgs, prepared: PreparedJob) => estimateLensRun(cwd, lensRequest({ lens: args.lens, force: args.force, effort: args.effort }, prepared));

async function stagedLines(cwd: string, args: ReviewArgs, prepared: PreparedJob, out: string[], prices: PriceOverrides | undefined): Promise<Estimate> {
  const est = await stagedEstimate(cwd, args, prepared, prices);
  out.push(`Estimate: ${est.calls} model calls · ~${k(est.inputTokens)} input tokens · ~${k(est.outputTokens)} output tokens (${est.functions} functions) · ${est.costUsd === null ? 'cost unknown (a model without a price; see --prices)' : `~${formatUsd(est.costUsd)} at the price table of ${PRICES_AS_OF}, with the prompt cache, for a cold run`}`);
  for (const [step, s] of Object.entries(est.byStep)) out.push(`  ${step}: ${s.calls} calls · ~${k(s.inputTokens)} in · ~${k(s.outputTokens)} out`);
  return est;
}

async function lensLines(cwd: string, args: ReviewArgs, prepared: PreparedJob, out: string[]): Promise<LensEstimate> {
  const est = await lensEstimate(cwd, args, prepared);
  out.push(`Estimate (lens mode): ${est.calls} model calls · ~${k(est.inputTokens)} input tokens before cache reads · ~${k(est.outputTokens)} output tokens (${est.parts} parts)`);
  for (const [role, s] of Object.entries(est.byRole)) out.push(`  ${role}: ${role === 'validator' ? 'up to ' : ''}${s.calls} calls · ~${k(s.inputTokens)} in · ~${k(s.outputTokens)} out`);
  return est;
}
