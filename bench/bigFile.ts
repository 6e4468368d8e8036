/**
 * `node esbuild.mjs --tests && node out/bench/bigFile.js [--windows 40000,100000,200000] [--lines 8] [--mode staged|lenses]`:
 * one generated file of many functions under a context window. For each window, finds the largest function
 * count (each function `--lines` lines long) whose review completes — every step of the one file answered, every
 * function reviewed, synthesis too — against the fake Messages API set to that window, and prints, at that count
 * and at the next one tried, the calls by step, the largest prompt the fake counted, how many requests it refused
 * as too long and whether the file went as an outline; then the calls a rerun of the unchanged file makes.
 * Prints; asserts nothing.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildJob } from '../src/app/buildJob';
import { runJob } from '../src/app/runJob';
import type { PriceOverrides } from '../src/model/pricing';
import { startFakeAnthropic } from '../test/fake-anthropic/server';

/** A TypeScript module of `functions` functions of `lines` lines each, about 50 characters a line. */
function bigModule(functions: number, lines: number): string {
  const fn = (g: number) =>
    [
      `export function f${g}(xs: number[], k: number): number {`,
      '  let acc = 0;',
      ...Array.from({ length: Math.max(0, lines - 3) }, (_, j) => `  acc += xs.length > ${j} ? xs[${j}]! * k : ${g};`),
      '  return acc;',
      '}',
    ].join('\n');
  return `/** A module of ${functions} helpers. */\n${Array.from({ length: functions }, (_, g) => fn(g)).join('\n\n')}\n`;
}

const windowTable = (tokens: number): PriceOverrides =>
  Object.fromEntries(['opus', 'sonnet', 'haiku'].map((f) => [f, { context_window: tokens }])) as PriceOverrides;

interface Outcome {
  complete: boolean;
  functionsReviewed: number;
  bytes: number;
  calls: Record<string, number>;
  /** The most prompt tokens of one request, by the fake's count. */
  largestPrompt: number;
  refused: number;
  outline: boolean;
  failed: string[];
}

async function review(
  root: string,
  functions: number,
  window: number,
  mode: 'staged' | 'lenses',
  cacheDir: string,
): Promise<Outcome> {
  const server = await startFakeAnthropic({ contextWindow: window });
  try {
    const job = buildJob(
      {
        cwd: root,
        mode,
        scope: { kind: 'paths', paths: ['big.ts'] },
        baseUrl: server.url,
        cacheDir,
        prices: windowTable(window),
        maxConcurrency: 8,
      },
      { apiKey: 'bench' },
    );
    const outcome = await runJob(job, { emit: () => undefined, signal: new AbortController().signal });
    if (outcome.kind !== 'ran') throw new Error(`the bench review did not run: ${outcome.kind}`);
    const { result } = outcome;
    const calls: Record<string, number> = {};
    for (const r of server.requests) {
      const what = r.record ?? r.reviewer ?? 'other';
      calls[what] = (calls[what] ?? 0) + 1;
    }
    const staged = result.mode === 'staged' ? result : undefined;
    const reviewed = staged?.files[0]?.functions_reviewed ?? 0;
    const failed = staged
      ? staged.failed.map((f) => `${f.step}: ${f.reason}`)
      : result.mode === 'lenses'
        ? result.failed.map((f) => `${f.unit}: ${f.reason}`)
        : [];
    return {
      complete: failed.length === 0 && (mode === 'lenses' || reviewed === functions),
      functionsReviewed: reviewed,
      bytes: 0,
      calls,
      largestPrompt: Math.max(
        0,
        ...server.requests.map((r) =>
          r.usage ? r.usage.input_tokens + r.usage.cache_read_input_tokens + r.usage.cache_creation_input_tokens : 0,
        ),
      ),
      refused: server.requests.filter((r) => r.status === 400).length,
      outline: staged?.notes.some((n) => n.includes('outline')) ?? false,
      failed,
    };
  } finally {
    await server.close();
  }
}

async function tryCount(functions: number, lines: number, window: number, mode: 'staged' | 'lenses') {
  const root = await mkdtemp(join(tmpdir(), 'skeptic-big-'));
  const text = bigModule(functions, lines);
  await writeFile(join(root, 'big.ts'), text);
  const cache = await mkdtemp(join(tmpdir(), 'skeptic-big-cache-'));
  const cold = { ...(await review(root, functions, window, mode, cache)), bytes: Buffer.byteLength(text) };
  return { cold, root, cache };
}

const describe = (n: number, o: Outcome) =>
  `${n} functions (${Math.round(o.bytes / 1024)} KB): ${o.complete ? 'complete' : 'INCOMPLETE'} · ${o.functionsReviewed} reviewed · ${Object.values(o.calls).reduce((x, y) => x + y, 0)} requests ${JSON.stringify(o.calls)} · largest prompt ${o.largestPrompt} · ${o.refused} refused · ${o.outline ? 'outline' : 'whole'}${o.failed.length ? ` · failed: ${o.failed[0]!.slice(0, 200)}` : ''}`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      windows: { type: 'string' },
      lines: { type: 'string' },
      mode: { type: 'string' },
      max: { type: 'string' },
    },
  });
  const windows = (values.windows ?? '40000,100000,200000').split(',').map(Number);
  const lines = Number(values.lines ?? 8);
  const mode = values.mode === 'lenses' ? 'lenses' : 'staged';
  const ceiling = Number(values.max ?? 4000);
  for (const window of windows) {
    console.log(`window ${window} tokens, functions of ${lines} lines, ${mode}`);
    // Doubling, then bisection between the last count that completed and the first that did not.
    let good = 0;
    let bad = 0;
    let goodRun: Awaited<ReturnType<typeof tryCount>> | undefined;
    let badOutcome: Outcome | undefined;
    for (let n = 25; n <= ceiling; n *= 2) {
      const run = await tryCount(n, lines, window, mode);
      if (run.cold.complete) [good, goodRun] = [n, run];
      else {
        [bad, badOutcome] = [n, run.cold];
        break;
      }
    }
    while (bad && bad - good > Math.max(1, Math.round(bad / 50))) {
      const n = Math.round((good + bad) / 2);
      const run = await tryCount(n, lines, window, mode);
      if (run.cold.complete) [good, goodRun] = [n, run];
      else [bad, badOutcome] = [n, run.cold];
    }
    if (goodRun) {
      console.log(`  largest complete: ${describe(good, goodRun.cold)}`);
      const rerun = await review(goodRun.root, good, window, mode, goodRun.cache);
      console.log(`  rerun, unchanged: ${Object.values(rerun.calls).reduce((a, b) => a + b, 0)} calls`);
    } else console.log('  none complete');
    if (badOutcome) console.log(`  first incomplete: ${describe(bad, badOutcome)}`);
    else console.log(`  every count up to ${ceiling} completed`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
