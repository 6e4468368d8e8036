/**
 * `skeptic plan`: Step 0 and the cost estimate, without an API key or any model call. With `--json` (a flag
 * here, unlike review's `--json FILE`), the same as one JSON record on stdout. The text is a summary (counts,
 * exclusions by reason, calls, tokens and dollars); `--verbose` lists every path.
 */
import { inventoryLine, plural } from '../model/plural';
import { EDITOR_PLAN, formatCost, formatUsd, PRICES_AS_OF } from '../model/pricing';
import { estimateJob, type Estimate, type LensEstimate } from '../app/estimate';
import { planInventories, QUICK_FROM_FILES, type Inventories } from '../app/inventories';
import { checkProvider } from '../app/jobChecks';
import { prepareJob } from '../app/prepareJob';
import { planJson } from '../app/planRecord';
import { parseReviewArgs } from './args';
import { chooseScope, jobFromFlags } from './job';
import type { CliIo } from './io';
import { EXIT, USAGE } from './help';

const EXAMPLES_PER_REASON = 10;

export async function planCommand(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const parsed = parseReviewArgs(argv.filter((a) => a !== '--json'));
  if (parsed.help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  // --json keeps stdout one JSON record: the scope's line goes to stderr then.
  const { flags: args, line } = await chooseScope(parsed, io);
  if (line) (json ? io.stderr : io.stdout).write(`${line}\n`);
  // The review's own job (cache folder, state folder, prices, models): the plan counts what that review will ask.
  const job = await jobFromFlags(args, io, '');
  checkProvider(job);
  const prepared = await prepareJob(job, { plan: true });
  // What review would warn about before its first call (a context file it skips, and why), on stderr.
  for (const message of prepared.warnings) io.stderr.write(`warning: ${message}\n`);
  const found = await planInventories(prepared.access, prepared.inventory.discovery.file_entries);
  const { inventories, quick } = found;
  const est = await estimateJob(job, prepared);
  // What the parses found is kept for the next plan and review.
  await prepared.access.facts.store.flush();
  if (json) {
    io.stdout.write(JSON.stringify(planJson(prepared, found, est, Boolean(job.cacheDir)), null, 2) + '\n');
    return EXIT.ok;
  }
  const { discovery, excluded } = prepared.inventory;
  const out: string[] = [`Scope: ${prepared.scope.description}`];
  if (prepared.scope.changes)
    out.push(
      `Changed lines: ${prepared.scope.changes.changedLines}${prepared.scope.skip ? ` — ${prepared.scope.skip.line}${job.force ? ' (forced)' : ''}` : ''}`,
    );
  out.push(inventoryLine(discovery.file_entries.length, prepared.companions));
  if (args.verbose)
    for (const e of discovery.file_entries)
      out.push(
        `  ${e.path}${functionCount(inventories, e.path)}${e.companion_path ? `  (companion ${e.companion_path})` : ''}`,
      );

  out.push(...excludedLines(excluded, { verbose: args.verbose }));
  const skipped = prepared.scope.changes?.skipped ?? [];
  if (args.verbose) for (const s of skipped) out.push(`  not reviewed (${s.reason}): ${s.path}`);
  else if (skipped.length) out.push(`Changed but not reviewed: ${skipped.length}`);
  if (prepared.context.length) out.push(`Context files: ${prepared.context.map((c) => c.path).join(', ')}`);

  if (quick.size)
    out.push(
      `Functions: ${plural(quick.size, 'file')} never parsed counted by a quick line match, not the parser (a plan parses only below ${QUICK_FROM_FILES} such files; a review parses every file)`,
    );
  if ('byStep' in est) stagedLines(est, out, Boolean(job.cacheDir), Boolean(job.batch));
  else lensLines(est, out, Boolean(job.batch));
  if (est.calls > job.confirmThreshold)
    out.push(`A review of this scope asks for confirmation (over ${job.confirmThreshold} calls): pass --yes.`);
  if (!args.verbose && discovery.file_entries.length + excluded.length > 0)
    out.push('Paths: skeptic plan --verbose lists every file.');
  io.stdout.write(out.join('\n') + '\n');
  return EXIT.ok;
}

/** The excluded files, counted by reason; with --verbose, a few of each reason's paths. */
function excludedLines(
  excluded: Array<{ path: string; reason: string; detail?: string }>,
  { verbose }: { verbose: boolean },
): string[] {
  const lines: string[] = [];
  const byReason = new Map<string, string[]>();
  // The detail says why (e.g. "GITHUB_TOKEN on line 3"), never what: no secret is ever printed.
  for (const e of excluded)
    byReason.set(e.reason, [...(byReason.get(e.reason) ?? []), e.detail ? `${e.path} (${e.detail})` : e.path]);
  const reasons = [...byReason].sort((a, b) => b[1].length - a[1].length);
  lines.push(
    `Excluded: ${excluded.length}${!verbose && reasons.length ? ` (${reasons.map(([reason, paths]) => `${paths.length} ${reason.replace(/_/g, ' ')}`).join(', ')})` : ''}`,
  );
  if (verbose) {
    for (const [reason, paths] of reasons) {
      lines.push(`  ${reason.replace(/_/g, ' ')}: ${paths.length}`);
      for (const p of paths.slice(0, EXAMPLES_PER_REASON)) lines.push(`    ${p}`);
      if (paths.length > EXAMPLES_PER_REASON) lines.push(`    … and ${paths.length - EXAMPLES_PER_REASON} more`);
    }
  }
  return lines;
}

/** The estimate's cost where the editor's plan bills the calls (provider vscode-lm): calls and tokens, no dollars. */
const BILLED_BY_EDITOR = `${EDITOR_PLAN}, no dollar figure`;

const k = (n: number) => `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;

function functionCount(inventories: Inventories, path: string): string {
  const n = inventories.get(path)?.functions.length;
  return n === undefined ? '' : `  ${plural(n, 'function')}`;
}

function stagedLines(est: Estimate, out: string[], cacheOn: boolean, batch: boolean): void {
  const cost =
    est.billing === 'editor'
      ? BILLED_BY_EDITOR
      : est.costUsd === null
        ? 'cost unknown (a model without a price; see --prices)'
        : `~${formatUsd(est.costUsd)} at the ${batch ? 'Message Batches (half) prices' : 'price table'} of ${PRICES_AS_OF}, with the prompt cache`;
  out.push(
    `Estimate: ${plural(est.calls, 'model call')} · ~${k(est.inputTokens)} input tokens · ~${k(est.outputTokens)} output tokens (${plural(est.functions, 'function')}) · ${cost}`,
  );
  out.push(
    cacheOn
      ? `Result cache: ${est.units.cached} of ${plural(est.units.total, 'unit')} answered from the cache`
      : 'Result cache: off (--no-cache): every unit is asked',
  );
  out.push(`Tokens per call and rates: ${basisLine(est)}`);
  for (const [step, s] of Object.entries(est.byStep))
    out.push(
      `  ${step}: ${plural(s.calls, 'call')} · ~${k(s.inputTokens)} in · ~${k(s.outputTokens)} out · ${formatCost(s.costUsd, est.billing)}`,
    );
}

/** Where the per-call token figures and rates come from: this repository's recorded runs (with the spread they give), or the defaults. */
function basisLine(est: Estimate): string {
  if (est.historyRuns === 0) return 'the defaults (no run recorded for this repository yet)';
  const fromDefaults = Object.entries(est.byStep)
    .filter(([, s]) => s.calls > 0 && s.basis === 'defaults')
    .map(([step]) => step);
  const range = est.costRange ? ` (${formatUsd(est.costRange[0])}–${formatUsd(est.costRange[1])} by run)` : '';
  return `from this repository's last ${plural(est.historyRuns, 'run')}${range}${fromDefaults.length ? `; the defaults for ${fromDefaults.join(', ')} (no recorded run on its model)` : ''}`;
}

function lensLines(est: LensEstimate, out: string[], batch: boolean): void {
  const prices = batch ? 'Message Batches (half) prices' : 'list prices';
  const cost =
    est.billing === 'editor'
      ? BILLED_BY_EDITOR
      : `up to ${formatUsd(est.costUsd)} (${prices} of ${PRICES_AS_OF}, before cache savings)`;
  out.push(
    `Estimate (lens mode): ${plural(est.calls, 'model call')} · ~${k(est.inputTokens)} input tokens before cache reads · ~${k(est.outputTokens)} output tokens (${plural(est.parts, 'part')}) · ${cost}`,
  );
  for (const [role, s] of Object.entries(est.byRole))
    out.push(
      `  ${role}: ${role === 'validator' ? 'up to ' : ''}${plural(s.calls, 'call')} · ~${k(s.inputTokens)} in · ~${k(s.outputTokens)} out · ${formatCost(s.costUsd, est.billing)}`,
    );
}
