/**
 * `skeptic plan`: Step 0 and the cost estimate, without an API key or any model call. With `--json` (a flag
 * here, unlike review's `--json FILE`), the same as one JSON record on stdout. The text is a summary (counts,
 * exclusions by reason, calls, tokens and dollars); `--verbose` lists every path.
 */
import { resolveLensModels } from '../model/models';
import { inventoryLine, plural } from '../model/plural';
import { costUsd, formatUsd, PRICES_AS_OF, type PriceOverrides } from '../model/pricing';
import { loadPrices } from './prices';
import { estimateLensRun, estimateRun, type Estimate, type LensEstimate, type StepEstimate } from '../app/estimate';
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
  const prices = await loadPrices(io.cwd, args.pricesFile);
  if (json) {
    const est = args.mode === 'lenses' ? await lensEstimate(args, prepared) : await stagedEstimate(args, prepared, prices);
    io.stdout.write(JSON.stringify(planJson(prepared, inventories, est), null, 2) + '\n');
    return EXIT.ok;
  }
  const { discovery, excluded } = prepared.inventory;
  const out: string[] = [`Scope: ${prepared.scope.description}`];
  if (prepared.scope.changes) out.push(`Changed lines: ${prepared.scope.changes.changedLines}${prepared.scope.skip ? ` — ${prepared.scope.skip}${args.force ? ' (forced)' : ''}` : ''}`);
  out.push(inventoryLine(discovery.file_entries.length, prepared.companions));
  if (args.verbose) for (const e of discovery.file_entries) out.push(`  ${e.path}${functionCount(inventories, e.path)}${e.companion_path ? `  (companion ${e.companion_path})` : ''}`);

  const byReason = new Map<string, string[]>();
  // The detail says why (e.g. "GITHUB_TOKEN on line 3"), never what: no secret is ever printed.
  for (const e of excluded) byReason.set(e.reason, [...(byReason.get(e.reason) ?? []), e.detail ? `${e.path} (${e.detail})` : e.path]);
  const reasons = [...byReason].sort((a, b) => b[1].length - a[1].length);
  out.push(`Excluded: ${excluded.length}${!args.verbose && reasons.length ? ` (${reasons.map(([reason, paths]) => `${paths.length} ${reason.replace(/_/g, ' ')}`).join(', ')})` : ''}`);
  if (args.verbose) {
    for (const [reason, paths] of reasons) {
      out.push(`  ${reason.replace(/_/g, ' ')}: ${paths.length}`);
      for (const p of paths.slice(0, EXAMPLES_PER_REASON)) out.push(`    ${p}`);
      if (paths.length > EXAMPLES_PER_REASON) out.push(`    … and ${paths.length - EXAMPLES_PER_REASON} more`);
    }
  }
  const skipped = prepared.scope.changes?.skipped ?? [];
  if (args.verbose) for (const s of skipped) out.push(`  not reviewed (${s.reason}): ${s.path}`);
  else if (skipped.length) out.push(`Changed but not reviewed: ${skipped.length}`);
  if (prepared.context.length) out.push(`Context files: ${prepared.context.map((c) => c.path).join(', ')}`);

  const est = args.mode === 'lenses' ? await lensLines(args, prepared, out, prices ?? {}) : await stagedLines(args, prepared, out, prices);
  if (est.calls > args.confirmOver) out.push(`A review of this scope asks for confirmation (over ${args.confirmOver} calls): pass --yes.`);
  if (!args.verbose && discovery.file_entries.length + excluded.length > 0) out.push('Paths: skeptic plan --verbose lists every file.');
  io.stdout.write(out.join('\n') + '\n');
  return EXIT.ok;
}

const k = (n: number) => `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;

function functionCount(inventories: Inventories, path: string): string {
  const n = inventories.get(path)?.functions.length;
  return n === undefined ? '' : `  ${plural(n, 'function')}`;
}

const stagedEstimate = (args: ReviewArgs, prepared: PreparedJob, prices: PriceOverrides | undefined) =>
  estimateRun(prepared.access, prepared.inventory.discovery.file_entries, prepared.context, prepared.scope.changedRanges, { models: args.models, ...(prices ? { prices } : {}) });
const lensEstimate = (args: ReviewArgs, prepared: PreparedJob) => estimateLensRun(prepared.access, lensRequest({ lens: args.lens, force: args.force, effort: args.effort }, prepared));

async function stagedLines(args: ReviewArgs, prepared: PreparedJob, out: string[], prices: PriceOverrides | undefined): Promise<Estimate> {
  const est = await stagedEstimate(args, prepared, prices);
  out.push(`Estimate: ${plural(est.calls, 'model call')} · ~${k(est.inputTokens)} input tokens · ~${k(est.outputTokens)} output tokens (${plural(est.functions, 'function')}) · ${est.costUsd === null ? 'cost unknown (a model without a price; see --prices)' : `~${formatUsd(est.costUsd)} at the price table of ${PRICES_AS_OF}, with the prompt cache, for a cold run`}`);
  for (const [step, s] of Object.entries(est.byStep)) out.push(`  ${step}: ${plural(s.calls, 'call')} · ~${k(s.inputTokens)} in · ~${k(s.outputTokens)} out`);
  return est;
}

/** Dollars for an estimated lens role on its model (prompt tokens priced as uncached input: an upper bound). */
function roleCost(model: string, s: StepEstimate, prices: PriceOverrides): number | null {
  return costUsd(model, { input_tokens: s.inputTokens, output_tokens: s.outputTokens, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }, prices);
}

async function lensLines(args: ReviewArgs, prepared: PreparedJob, out: string[], prices: PriceOverrides): Promise<LensEstimate> {
  const est = await lensEstimate(args, prepared);
  const models = resolveLensModels(undefined, args.lens?.models ?? {});
  const rows = Object.entries(est.byRole).map(([role, s]) => ({ role, s, cost: roleCost(models[role as keyof typeof models], s, prices) }));
  const total = rows.reduce<number | null>((sum, r) => (sum === null || r.cost === null ? null : sum + r.cost), 0);
  out.push(`Estimate (lens mode): ${plural(est.calls, 'model call')} · ~${k(est.inputTokens)} input tokens before cache reads · ~${k(est.outputTokens)} output tokens (${plural(est.parts, 'part')}) · up to ${formatUsd(total)} (list prices of ${PRICES_AS_OF}, before cache savings)`);
  for (const { role, s, cost } of rows) out.push(`  ${role}: ${role === 'validator' ? 'up to ' : ''}${plural(s.calls, 'call')} · ~${k(s.inputTokens)} in · ~${k(s.outputTokens)} out · ${formatUsd(cost)}`);
  return est;
}
