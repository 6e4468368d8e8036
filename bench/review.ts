/**
 * Runs a whole review in-process against the fake Messages API over a synthetic project and prints its
 * figures: calls, wall time, retries and repairs, tokens and the prompt-cache read share (overall and per
 * step or reviewer). Either mode, with or without injected faults.
 */
import { performance } from 'node:perf_hooks';
import { buildJob } from '../src/app/buildJob';
import type { ReviewChoices } from '../src/app/choices';
import { runJob } from '../src/app/runJob';
import type { Scenario } from '../test/fake-anthropic/scenario';
import { startFakeAnthropic } from '../test/fake-anthropic/server';
import { syntheticProject } from './project';

export interface ReviewBench {
  title: string;
  files: number;
  functions: number;
  latencyMs: number;
  scenario?: Scenario;
  /** Lens mode when set. */
  lens?: Pick<ReviewChoices, 'fullFanout' | 'maxReviewers'>;
}

/** Faults a long run meets in practice: rate limits, overload, dropped connections, malformed replies. */
export const TYPICAL_FAULTS: Scenario = {
  faults: [
    { kind: 'status', status: 429, retry_after: 0.2, times: 3 },
    { kind: 'status', status: 529, times: 2 },
    { kind: 'drop', times: 2 },
    { kind: 'invalid_json', times: 2 },
    { kind: 'schema_invalid', times: 2 },
  ],
};

export async function benchReview(b: ReviewBench): Promise<string> {
  const cwd = await syntheticProject(b.files, b.functions);
  const server = await startFakeAnthropic({ scenario: b.scenario ?? {}, latencyMs: b.latencyMs });
  try {
    const job = buildJob(
      {
        cwd,
        scope: { kind: 'paths', paths: ['src'] },
        ...(b.lens ? { mode: 'lenses' as const, ...b.lens } : {}),
        requestTimeout: 60,
        baseUrl: server.url,
      },
      { apiKey: 'bench' },
    );
    const t0 = performance.now();
    const outcome = await runJob(job, { emit: () => undefined, signal: new AbortController().signal });
    if (outcome.kind !== 'ran') throw new Error(`the bench review did not run: ${outcome.kind}`);
    const { result } = outcome;
    const seconds = (performance.now() - t0) / 1000;
    const u = result.usage;
    const prompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
    const share = (x: typeof u) =>
      pct(x.cache_read_input_tokens, x.input_tokens + x.cache_read_input_tokens + x.cache_creation_input_tokens);
    return [
      `${b.title}: ${b.files} files × ${b.functions} functions, ${b.latencyMs} ms latency`,
      `  wall ${seconds.toFixed(2)} s · ${u.calls} calls · ${result.retries} retries · ${result.repairs} repairs · ${result.failed.length} failed units`,
      `  prompt tokens ${prompt} (cache read ${pct(u.cache_read_input_tokens, prompt)}, cache write ${pct(u.cache_creation_input_tokens, prompt)}) · output ${u.output_tokens}`,
      `  by ${b.lens ? 'reviewer' : 'step'}: ${Object.entries(result.usageByStep)
        .map(([s, x]) => `${s} ${x.calls} calls / ${share(x)} read`)
        .join(', ')}`,
    ].join('\n');
  } finally {
    await server.close();
  }
}

const pct = (part: number, whole: number) => `${whole ? ((100 * part) / whole).toFixed(1) : '0.0'}%`;
