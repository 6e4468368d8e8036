/**
 * `npm run bench:window [-- --files N] [-- --window TOKENS] [-- --tree DIR]`: a wide review under a context
 * window. Reviews a generated tree of small files in many folders (or a copy of a real one) in-process
 * against the fake Messages API set to that window, and prints whether synthesis completed, the calls, the
 * largest prompt any request carried (the fake's own count, refused requests included) and how many were
 * refused as too long; then the calls a rerun of the unchanged tree makes, and the same for a tree of 30 files whose
 * synthesis is salvaged (a planted cross-file finding cites a file that was not reviewed). Prints; asserts nothing.
 */
import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildJob } from '../src/app/buildJob';
import { runJob } from '../src/app/runJob';
import type { PriceOverrides } from '../src/model/pricing';
import { PromptCache } from '../test/fake-anthropic/cache';
import { MessagesBody } from '../test/fake-anthropic/request';
import type { Scenario } from '../test/fake-anthropic/scenario';
import { startFakeAnthropic, type LoggedRequest } from '../test/fake-anthropic/server';

/** `files` modules of three small functions, thirty to a folder. */
async function wideTree(files: number): Promise<{ root: string; scope: string }> {
  const root = await mkdtemp(join(tmpdir(), 'skeptic-wide-'));
  for (let f = 0; f < files; f++) {
    const dir = join(root, 'src', `pkg${Math.floor(f / 30)}`);
    await mkdir(dir, { recursive: true });
    const body = [`/** Module ${f}: small helpers. */`];
    for (let g = 0; g < 3; g++) {
      body.push(`export function m${f}f${g}(xs: number[], k: number): number {`, '  let acc = 0;');
      body.push('  for (const x of xs) acc += x * k;', '  return acc;', '}', '');
    }
    await writeFile(join(dir, `mod${f}.ts`), body.join('\n'));
  }
  return { root, scope: 'src' };
}

async function copiedTree(dir: string): Promise<{ root: string; scope: string }> {
  const root = await mkdtemp(join(tmpdir(), 'skeptic-wide-real-'));
  const scope = basename(resolve(dir));
  await cp(resolve(dir), join(root, scope), { recursive: true });
  return { root, scope };
}

/** The window for every model family, through the price table as a user would set it. */
const windowTable = (tokens: number): PriceOverrides =>
  Object.fromEntries(['opus', 'sonnet', 'haiku'].map((f) => [f, { context_window: tokens }])) as PriceOverrides;

/** The prompt tokens of a logged request as the fake counts them, whether or not it was answered. */
function promptOf(entry: LoggedRequest): number {
  const body = MessagesBody.safeParse(entry.body);
  if (!body.success) return 0;
  const { usage } = new PromptCache(Number.MAX_SAFE_INTEGER).account(body.data);
  return usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
}

async function review(tree: { root: string; scope: string }, window: number, scenario: Scenario, cacheDir: string) {
  const server = await startFakeAnthropic({ scenario, contextWindow: window });
  try {
    const job = buildJob(
      {
        cwd: tree.root,
        scope: { kind: 'paths', paths: [tree.scope] },
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
    const synthesis = server.requests.filter((r) => r.record?.startsWith('Synthesis'));
    return {
      completed: result.mode === 'staged' && result.synthesis !== null,
      calls: result.usage.calls,
      largest: Math.max(0, ...server.requests.map(promptOf)),
      refused: server.requests.filter((r) => r.status === 400).length,
      synthesisCalls: synthesis.length,
      files: result.files.length,
      notes: result.mode === 'staged' ? result.notes.length : 0,
    };
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { files: { type: 'string' }, window: { type: 'string' }, tree: { type: 'string' } },
  });
  const window = Number(values.window ?? 200_000);
  const tree = values.tree ? await copiedTree(values.tree) : await wideTree(Number(values.files ?? 600));
  const line = (title: string, r: Awaited<ReturnType<typeof review>>) =>
    `  ${title}: synthesis ${r.completed ? 'completed' : 'did NOT complete'} · ${r.calls} calls (${r.synthesisCalls} synthesis requests) · largest prompt ${r.largest} tokens · ${r.refused} refused as too long · ${r.notes} notes`;

  console.log(`${values.tree ?? 'generated tree'}: window ${window} tokens`);
  const cache = await mkdtemp(join(tmpdir(), 'skeptic-wide-cache-'));
  const cold = await review(tree, window, {}, cache);
  console.log(`  ${cold.files} files`);
  console.log(line('cold', cold));
  console.log(line('rerun, unchanged', await review(tree, window, {}, cache)));

  // A cross-file finding that cites a file outside the review: kept out after the repair turns (salvaged).
  const salvage: Scenario = {
    synthesis: {
      cross_file_findings: [
        {
          rule_id: 'G1',
          confidence: 'medium',
          priority: 'should_fix',
          locations: ['src/pkg0/mod0.ts:2', 'nowhere/else.ts:1'],
          action: 'Share one helper.',
          rationale: 'Planted to be salvaged.',
        },
      ],
    },
  };
  const salvageCache = await mkdtemp(join(tmpdir(), 'skeptic-wide-cache-'));
  const small = await wideTree(30);
  console.log(line('30 files, salvaged synthesis, cold', await review(small, window, salvage, salvageCache)));
  console.log(line('30 files, salvaged synthesis, rerun', await review(small, window, salvage, salvageCache)));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
