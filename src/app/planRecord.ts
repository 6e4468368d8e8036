/** The plan as data: what `skeptic plan --json` prints. */
import { languageOf } from '../model/languages';
import type { PlanJson } from '../report/planJson';
import type { Estimate, LensEstimate, StagedStepEstimate, StepEstimate } from './estimate';
import type { PlanInventories } from './inventories';
import type { PreparedJob } from './job';

const cost = (s: StepEstimate) => ({ calls: s.calls, input_tokens: s.inputTokens, output_tokens: s.outputTokens });
const stagedCost = (s: StagedStepEstimate) => ({
  ...cost(s),
  cache_read_tokens: s.cacheReadTokens,
  cache_write_tokens: s.cacheWriteTokens,
  cost_usd: s.costUsd,
  basis: s.basis,
});

/** `cacheOn`: the run would use a result cache (not --no-cache). */
export function planJson(
  prepared: PreparedJob,
  { inventories, quick }: PlanInventories,
  estimate: Estimate | LensEstimate,
  cacheOn: boolean,
): PlanJson {
  const { discovery, excluded } = prepared.inventory;
  const staged = 'byStep' in estimate;
  return {
    version: 1,
    mode: staged ? 'staged' : 'lenses',
    scope: prepared.scope.description,
    review_roots: discovery.review_roots,
    files: discovery.file_entries.map((e) => {
      const found = inventories.get(e.path);
      return {
        path: e.path,
        language: languageOf(e.path),
        companion: e.companion_path,
        parser: found?.parser ?? null,
        ...(quick.has(e.path) ? { counted_quickly: true as const } : {}),
        functions: (found?.functions ?? []).map((f) => ({
          name: f.qualified_name,
          kind: f.kind,
          start: f.start_line,
          end: f.end_line,
        })),
      };
    }),
    exclusions: [...excluded, ...(prepared.scope.changes?.skipped ?? [])].map((x) => ({
      path: x.path,
      reason: x.reason,
      ...('detail' in x && x.detail ? { detail: x.detail } : {}),
    })),
    estimate: {
      ...cost(estimate),
      functions: staged ? estimate.functions : null,
      by_step: staged
        ? Object.fromEntries(Object.entries(estimate.byStep).map(([k, s]) => [k, stagedCost(s)]))
        : Object.fromEntries(Object.entries(estimate.byRole).map(([k, s]) => [k, { ...cost(s), cost_usd: s.costUsd }])),
      cost_usd: estimate.costUsd,
      cost_range_usd: staged ? (estimate.costRange ?? null) : null,
      history_runs: staged ? estimate.historyRuns : null,
      cached_units: staged && cacheOn ? estimate.units.cached : null,
      total_units: staged ? estimate.units.total : null,
      quick_counted_files: quick.size,
    },
  };
}
