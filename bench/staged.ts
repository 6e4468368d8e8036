/**
 * Runs the staged pipeline in-process against the fake Messages API and prints figures: calls, wall time,
 * tokens and the prompt-cache read share, for a clean run and for a run with injected faults.
 */
import { performance } from 'node:perf_hooks';
import { prepareJob, executeJob, type ReviewJob } from '../src/app/job';
import { resolveStepModels } from '../src/engine/models';
import { startFakeAnthropic } from '../test/fake-anthropic/server';
import type { Scenario } from '../test/fake-anthropic/scenario';
import { syntheticProject } from './project';

export async function benchStaged(opts: { files: number; functions: number; latencyMs: number; faults: boolean }): Promise<string> {
  const cwd = await syntheticProject(opts.files, opts.functions);
  const scenario: Scenario = opts.faults
    ? {
        faults: [
          { kind: 'status', status: 429, retry_after: 0.2, times: 3 },
          { kind: 'status', status: 529, times: 2 },
          { kind: 'drop', times: 2 },
          { kind: 'invalid_json', times: 2 },
          { kind: 'schema_invalid', times: 2 },
        ],
      }
    : {};
  const server = await startFakeAnthropic({ scenario, latencyMs: opts.latencyMs });
  try {
    const job: ReviewJob = {
      cwd,
      scope: { kind: 'paths', paths: ['src'] },
      excludes: [],
      includeUntracked: true,
      force: false,
      contextFiles: [],
      models: resolveStepModels(),
      concurrency: 8,
      timeoutMs: 60_000,
      maxAttempts: 6,
      apiKey: 'bench',
      baseURL: server.url,
    };
    const t0 = performance.now();
    const prepared = await prepareJob(job);
    const result = await executeJob(job, prepared, () => undefined, new AbortController().signal);
    const seconds = (performance.now() - t0) / 1000;
    const u = result.usage;
    const prompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
    return [
      `staged ${opts.faults ? 'with faults' : 'clean'}: ${opts.files} files × ${opts.functions} functions, ${opts.latencyMs} ms latency`,
      `  wall ${seconds.toFixed(2)} s · ${u.calls} calls · ${result.retries} retries · ${result.repairs} repairs · ${result.failed.length} failed units`,
      `  prompt tokens ${prompt} (cache read ${pct(u.cache_read_input_tokens, prompt)}, cache write ${pct(u.cache_creation_input_tokens, prompt)}) · output ${u.output_tokens}`,
      `  by step: ${Object.entries(result.usageByStep).map(([s, x]) => `${s} ${x.calls} calls / ${pct(x.cache_read_input_tokens, x.input_tokens + x.cache_read_input_tokens + x.cache_creation_input_tokens)} read`).join(', ')}`,
    ].join('\n');
  } finally {
    await server.close();
  }
}

const pct = (part: number, whole: number) => `${whole ? ((100 * part) / whole).toFixed(1) : '0.0'}%`;
