/**
 * Runs lens mode (the three default reviewers) in-process against the fake Messages API and prints figures: calls, wall time, tokens
 * and the prompt-cache read share (overall and per role), for a synthetic project.
 */
import { performance } from 'node:perf_hooks';
import { executeJob, prepareJob, type ReviewJob } from '../src/app/job';
import { resolveStepModels } from '../src/engine/models';
import { startFakeAnthropic } from '../test/fake-anthropic/server';
import { syntheticProject } from './project';

export async function benchLenses(opts: { files: number; functions: number; latencyMs: number }): Promise<string> {
  const cwd = await syntheticProject(opts.files, opts.functions);
  const server = await startFakeAnthropic({ latencyMs: opts.latencyMs });
  try {
    const job: ReviewJob = {
      cwd,
      scope: { kind: 'paths', paths: ['src'] },
      mode: 'lenses',
      lens: { fullFanout: false, models: {}, repositories: [] },
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
      `lenses (default reviewers): ${opts.files} files × ${opts.functions} functions, ${opts.latencyMs} ms latency`,
      `  wall ${seconds.toFixed(2)} s · ${u.calls} calls · ${result.retries} retries · ${result.repairs} repairs · ${result.failed.length} failed units`,
      `  prompt tokens ${prompt} (cache read ${pct(u.cache_read_input_tokens, prompt)}, cache write ${pct(u.cache_creation_input_tokens, prompt)}) · output ${u.output_tokens}`,
      `  by role: ${Object.entries(result.usageByStep).map(([s, x]) => `${s} ${x.calls} calls / ${pct(x.cache_read_input_tokens, x.input_tokens + x.cache_read_input_tokens + x.cache_creation_input_tokens)} read`).join(', ')}`,
    ].join('\n');
  } finally {
    await server.close();
  }
}

const pct = (part: number, whole: number) => `${whole ? ((100 * part) / whole).toFixed(1) : '0.0'}%`;
