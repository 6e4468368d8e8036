/**
 * A review through the Message Batches API against the same review live, in-process against the fake: on a
 * tree of files, each run with a fresh fake (empty prompt cache) and no result cache, it prints the batch
 * run's rounds and batches, both runs' calls, cost and wall time, and whether their findings are the same.
 * The fake answers a batch as soon as it is created (or after `batchDelayMs`), so the wall time here is the
 * engine's own (rounds, polls, settling); a real batch takes minutes to hours.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildJob } from '../src/app/buildJob';
import { runJob } from '../src/app/runJob';
import type { ReviewResult } from '../src/model/events';
import { formatUsd } from '../src/model/pricing';
import type { Scenario } from '../test/fake-anthropic/scenario';
import { startFakeAnthropic } from '../test/fake-anthropic/server';
import { syntheticProject } from './project';

const REPO = resolve(__dirname, '../..');

export interface BatchBench {
  title: string;
  cwd: string;
  paths: string[];
  scenario?: Scenario;
  latencyMs?: number;
}

interface Figures {
  result: ReviewResult;
  seconds: number;
}

async function once(b: BatchBench, batch: boolean): Promise<Figures> {
  const server = await startFakeAnthropic({ scenario: b.scenario ?? {}, latencyMs: b.latencyMs ?? 0 });
  try {
    const job = buildJob(
      {
        cwd: b.cwd,
        scope: { kind: 'paths', paths: b.paths },
        baseUrl: server.url,
        batch,
        out: `/tmp/skeptic-bench-batch-${process.pid}-${batch ? 'batch' : 'live'}.md`,
      },
      { apiKey: 'bench' },
    );
    const t0 = performance.now();
    const outcome = await runJob(job, { emit: () => undefined, signal: new AbortController().signal });
    if (outcome.kind !== 'ran') throw new Error(`the bench review did not run: ${outcome.kind}`);
    return { result: outcome.result, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await server.close();
  }
}

export async function benchBatch(b: BatchBench): Promise<string> {
  const live = await once(b, false);
  const batch = await once(b, true);
  const key = (r: ReviewResult) =>
    JSON.stringify(r.findings.map((f) => `${f.file}:${f.line} ${f.rule_id} ${f.priority}`).sort());
  const line = (name: string, f: Figures) =>
    `  ${name}: ${f.result.usage.calls} calls · ${formatUsd(f.result.usage.cost_usd)} (${f.result.usage.cost_usd?.toFixed(4)}) · wall ${f.seconds.toFixed(1)} s · ${f.result.findings.length} findings · ${f.result.failed.length} failed units`;
  const rounds = batch.result.batch;
  return [
    `${b.title}: ${batch.result.files.length} files`,
    line('live ', live),
    line('batch', batch),
    `  batch: ${rounds?.rounds ?? 0} rounds · ${rounds?.batches ?? 0} batches · cost ${pct(batch.result.usage.cost_usd, live.result.usage.cost_usd)} of live · findings ${key(live.result) === key(batch.result) ? 'identical' : 'DIFFERENT'}`,
  ].join('\n');
}

const pct = (part: number | null, whole: number | null) =>
  part === null || !whole ? '?' : `${((100 * part) / whole).toFixed(0)}%`;

/** A copy of `from` (under this repository) in a fresh git repository, as `name/`. */
async function copied(from: string, name: string): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'skeptic-scale-'));
  await cp(join(REPO, from), join(cwd, name), { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd });
  execFileSync('git', ['add', '-A'], { cwd });
  return cwd;
}

/** The shop fixture, a synthetic tree and an installed package's sources, each live and through batches. */
export async function batchAgainstLive(): Promise<string[]> {
  const shop = JSON.parse(await readFile(join(REPO, 'test/fixtures/shop.scenario.json'), 'utf8')) as Scenario;
  return [
    await benchBatch({
      title: 'batch vs live, shop fixture',
      cwd: await copied('test/fixtures/shop', 'shop'),
      paths: ['shop'],
      scenario: shop,
    }),
    await benchBatch({ title: 'batch vs live, synthetic 40 × 8', cwd: await syntheticProject(40, 8), paths: ['src'] }),
    await benchBatch({
      title: 'batch vs live, cheerio/src (installed)',
      cwd: await copied('node_modules/cheerio/src', 'src'),
      paths: ['src'],
    }),
  ];
}
