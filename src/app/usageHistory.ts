/**
 * This repository's recent staged runs as the estimate learns from them (the record: model/usageRecord.ts),
 * kept small (the last few runs) in the repository's state folder (src/app/state.ts). The estimate takes its
 * per-call token figures and its rates for files the result cache knows nothing of from here once there is
 * a run to learn from, instead of its defaults (engine/staged/estimate.ts). A record that does not parse is
 * ignored, never an error: the estimate falls back to its defaults and the next run starts the record afresh.
 */
import { readOwnFile } from '../io/regularFile';
import { replaceFile } from '../io/safeWrite';
import { MAX_STATE_FILE_BYTES } from './state';
import { join } from 'node:path';
import { z } from 'zod';
import { RunUsage, type RunShape } from '../model/usageRecord';
import type { StagedResult } from '../model/events';

const HISTORY_FILE = 'usage-history.json';
/** Enough to smooth one odd run, few enough that the figures follow the code as it changes. */
export const HISTORY_RUNS = 5;

const History = z.object({ version: z.literal(1), runs: z.array(RunUsage) });

/** The recorded runs, oldest first; [] when there is no record or it does not parse. */
export async function readUsageHistory(stateDir: string): Promise<RunUsage[]> {
  try {
    const text = await readOwnFile(join(stateDir, HISTORY_FILE), MAX_STATE_FILE_BYTES);
    const parsed = text === null ? null : History.safeParse(JSON.parse(text));
    return parsed?.success ? parsed.data.runs.slice(-HISTORY_RUNS) : [];
  } catch {
    return [];
  }
}

/** Adds a finished run (steps that made no call are left out; a run that made none is not recorded); whole-file replace. */
export async function recordRunUsage(stateDir: string, result: StagedResult, at = new Date()): Promise<void> {
  const steps = Object.fromEntries(
    Object.entries(result.usageByStep)
      .filter(([step, u]) => u.calls > 0 && result.models[step])
      .map(([step, u]) => [
        step,
        {
          model: result.models[step]!,
          calls: u.calls,
          input_tokens: u.input_tokens,
          output_tokens: u.output_tokens,
          cache_read_input_tokens: u.cache_read_input_tokens,
          cache_creation_input_tokens: u.cache_creation_input_tokens,
        },
      ]),
  );
  if (Object.keys(steps).length === 0) return;
  const rows = result.files.flatMap((f) => f.analysis?.functions ?? []);
  const shape: RunShape = {
    curated: result.files.filter((f) => f.step1).length,
    analysed: result.files.filter((f) => f.analysis).length,
    functions: rows.length,
    solo: rows.filter((r) => r.solo_review).length,
    challenged: result.files.filter((f) => f.challenged).length,
  };
  const runs = [...(await readUsageHistory(stateDir)), { at: at.toISOString(), steps, shape }].slice(-HISTORY_RUNS);
  await replaceFile(
    join(stateDir, HISTORY_FILE),
    JSON.stringify({ version: 1, runs } satisfies z.infer<typeof History>, null, 2),
  );
}
