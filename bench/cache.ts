/**
 * `npm run bench:cache [-- --runs N] [-- --tree DIR [--edit PATH]] [-- --cli PATH] [-- --timeline]`: the built CLI, run as a user runs it (no cache flags),
 * against the fake Messages API with strict prompt-cache accounting and a latency model, over a generated
 * skewed tree (or a copy of a real one). Prints, per cold run and as medians: the share of prompt tokens
 * read from cache, first file finished ÷ wall time, the model phase (first request to last answer) ÷ a lower
 * bound from the calls' own durations (the longest file chain plus synthesis, or all call time over the slots),
 * startup (spawn → first request); then the calls a rerun of the unchanged tree makes and the calls after a
 * one-line edit in one function; and `skeptic plan`'s estimate ÷ the calls made before each of those runs,
 * with its dollars against those spent: the first cold run from the defaults, the next ones calibrated on
 * the runs before (the result cache is cleared between cold runs, the recorded usage is not). `--timeline`
 * shows where the last cold run's model phase went (bench/timeline.ts). Prints; asserts nothing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { costUsd } from '../src/model/pricing';
import { findFunctions } from '../src/scope/functionFinder';
import { languageOf } from '../src/model/languages';
import type { Scenario } from '../test/fake-anthropic/scenario';
import { startFakeAnthropic, type FakeAnthropic, type LoggedRequest } from '../test/fake-anthropic/server';
import { callsByFile, lowerBound, STEP_OF, timeline } from './timeline';

const REPO = resolve(__dirname, '../..');
/** `--cli PATH` measures another build (e.g. the code before a change) under the same fake and tree. */
let CLI = join(REPO, 'dist/cli.js');
/** The latency model: time to the first token, then generation per output token. */
const LATENCY = { firstTokenMs: 300, msPerOutputToken: 0.1 };
const CONCURRENCY = 8;

/** 30 TypeScript modules with Zipf-like sizes (62 functions down to 2), a test file for every third, and a CLAUDE.md. */
async function skewedTree(): Promise<{ root: string; scenario: Scenario; edit: string }> {
  const root = await mkdtemp(join(tmpdir(), 'skeptic-skewed-'));
  await mkdir(join(root, 'src'), { recursive: true });
  const files: Scenario['files'] = {};
  for (let f = 0; f < 30; f++) {
    const count = Math.max(2, Math.round(62 / (f + 1) ** 0.9));
    const body = [`/** Module ${f}: ledger arithmetic used by the billing service. */`, ''];
    for (let g = 0; g < count; g++) {
      body.push(`/** Applies rule ${g} of module ${f} to a ledger row and returns the adjusted amount in cents. */`);
      body.push(
        `export function m${f}f${g}(row: { amount: number; rate: number; tags: string[] }, k: number): number {`,
        '  let acc = 0;',
      );
      for (let l = 0; l < 9; l++)
        body.push(`  acc += Math.round((row.amount * row.rate + ${l}) * k) - (row.tags.length > ${l} ? ${l} : 0);`);
      body.push('  return acc;', '}', '');
    }
    await writeFile(join(root, 'src', `mod${f}.ts`), body.join('\n'));
    // One planted finding per module, so the challenge step runs as it does on real code.
    files[`src/mod${f}.ts`] = { reviews: { [`m${f}f0`]: { A1: { verdict: 'flag', line: 4 } } } };
    if (f % 3 === 0) {
      const tests = [`import { m${f}f0 } from './mod${f}';`, ''];
      for (let t = 0; t < Math.min(count, 6); t++)
        tests.push(
          `export function test${t}(): void {`,
          `  if (m${f}f0({ amount: ${t}, rate: 1, tags: [] }, 1) < 0) throw new Error('negative');`,
          '}',
          '',
        );
      await writeFile(join(root, 'src', `mod${f}.test.ts`), tests.join('\n'));
    }
  }
  const conventions = Array.from(
    { length: 60 },
    (_, i) => `- Convention ${i}: amounts are integer cents; rates are basis points; never round twice in one path.`,
  );
  await writeFile(join(root, 'CLAUDE.md'), `# Billing service conventions\n\n${conventions.join('\n')}\n`);
  gitInit(root);
  return { root, scenario: { files }, edit: 'src/mod0.ts' };
}

/** A copy of a real tree, as its own git repository; the edit goes into the first file with a companion. */
async function realTree(dir: string, editPath?: string): Promise<{ root: string; scenario: Scenario; edit: string }> {
  const root = await mkdtemp(join(tmpdir(), 'skeptic-real-'));
  await cp(resolve(dir), root, { recursive: true, filter: (p) => !/\/(node_modules|__pycache__|\.git)(\/|$)/.test(p) });
  gitInit(root);
  const { files } = JSON.parse(
    execFileSync(process.execPath, [CLI, 'plan', '--json', '--no-cache'], { cwd: root, encoding: 'utf8' }),
  ) as { files: { path: string; companion: string | null; functions: unknown[] }[] };
  const edit =
    editPath ?? (files.find((f) => f.companion && f.functions.length) ?? files.find((f) => f.functions.length))?.path;
  if (!edit) throw new Error(`no reviewable file found under ${dir}`);
  return { root, scenario: {}, edit };
}

function gitInit(root: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=bench@skeptic', '-c', 'user.name=bench', 'commit', '-qm', 'tree');
}

/** One line inside the body of the file's largest function gets a trailing comment. */
async function editOneFunction(root: string, path: string): Promise<string> {
  const file = join(root, path);
  const lines = (await readFile(file, 'utf8')).split('\n');
  const fns = findFunctions(
    languageOf(path),
    lines.map((text, i) => ({ no: i + 1, text })),
  );
  const spans = fns.map((f, i) => ({
    name: f.qualified_name,
    start: f.start_line,
    end: (fns[i + 1]?.start_line ?? lines.length + 1) - 1,
  }));
  const target = spans.sort((a, b) => b.end - b.start - (a.end - a.start))[0];
  if (!target) throw new Error(`no function found in ${path}`);
  const at = target.start; // the definition line itself: always inside the function
  lines[at - 1] = `${lines[at - 1]} ${languageOf(path) === 'python' ? '#' : '//'} edited by the bench`;
  await writeFile(file, lines.join('\n'));
  return `${path} ${target.name} (line ${at})`;
}

interface CliRun {
  wallMs: number;
  startupMs: number | null;
  calls: LoggedRequest[];
  code: number | null;
  stderr: string;
}

async function runCli(server: FakeAnthropic, cwd: string, cacheHome: string): Promise<CliRun> {
  const from = server.requests.length;
  const t0 = Date.now();
  const child = spawn(process.execPath, [CLI, 'review', '--yes', '--json', 'skeptic-result.json'], {
    cwd,
    env: { ...process.env, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, XDG_CACHE_HOME: cacheHome },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const wallMs = Date.now() - t0;
  const calls = server.requests.slice(from).map((r) => ({
    ...r,
    started_at: r.started_at - t0,
    ended_at: (r.ended_at ?? t0) - t0,
    began_at: r.began_at && r.began_at - t0,
  }));
  return { wallMs, startupMs: calls[0]?.started_at ?? null, calls, code, stderr };
}

interface ColdFigures {
  readShare: number;
  firstFileShare: number;
  overBound: number;
  /** The same, over the bound with synthesis after every file's calls (the Step 5 barrier). */
  overBarrier: number;
  startupMs: number | null;
  /** A bare `node -e 0` started just before the run: startup is a ratio to it. */
  bareMs: number;
  calls: number;
  wallMs: number;
  cost: number;
}

function coldFigures(run: CliRun, bareMs: number): ColdFigures {
  const answered = run.calls.filter((c) => c.usage);
  const sum = (f: (c: LoggedRequest) => number) => answered.reduce((n, c) => n + f(c), 0);
  const prompt = sum(
    (c) => c.usage!.input_tokens + c.usage!.cache_read_input_tokens + c.usage!.cache_creation_input_tokens,
  );
  // A file is done when its last call ends; files that never reached Step 2 (skipped as docs or config) do not count.
  const firstDone = Math.min(
    ...[...callsByFile(answered).values()].map((cs) => Math.max(...cs.map((c) => c.ended_at!))),
  );
  const { bound, barrier } = lowerBound(answered, CONCURRENCY);
  // The model phase (first request to last answer): startup is measured on its own.
  const modelPhase = Math.max(...answered.map((c) => c.ended_at!)) - Math.min(...answered.map((c) => c.started_at));
  const cost = sum((c) => costUsd((c.body as { model: string }).model, c.usage!) ?? 0);
  return {
    readShare: sum((c) => c.usage!.cache_read_input_tokens) / prompt,
    firstFileShare: firstDone / run.wallMs,
    overBound: modelPhase / bound,
    overBarrier: modelPhase / barrier,
    startupMs: run.startupMs,
    bareMs,
    calls: run.calls.length,
    wallMs: run.wallMs,
    cost,
  };
}

/** Where the prompt tokens of a run went, per step (primes apart). */
function byStep(run: CliRun): string {
  const sums = new Map<string, [number, number, number]>();
  for (const c of run.calls) {
    if (!c.usage) continue;
    const step = STEP_OF[c.record ?? ''] ?? 'prime';
    const s = sums.get(step) ?? [0, 0, 0];
    s[0] += c.usage.cache_read_input_tokens;
    s[1] += c.usage.cache_creation_input_tokens;
    s[2] += c.usage.input_tokens;
    sums.set(step, s);
  }
  const k = (n: number) => (n / 1000).toFixed(0);
  return [...sums].map(([step, [r, w, u]]) => `${step} ${k(r)}/${k(w)}/${k(u)}`).join(' · ');
}

/** Milliseconds from spawn to exit of a bare `node -e 0`: what the startup figure is a ratio to. */
function bareNode(): number {
  const t0 = Date.now();
  execFileSync(process.execPath, ['-e', '0']);
  return Date.now() - t0;
}

const startupRatio = (f: ColdFigures) => (f.startupMs === null ? 'NaN' : (f.startupMs / f.bareMs).toFixed(2));
/** The machine's 1-minute load average and core count: figures on a shared machine are read with it. */
const loadAverage = () => `${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

interface Planned {
  calls: number;
  dollars: number | null;
  cached: number | null;
  units: number | null;
  historyRuns: number | null;
}

/** `skeptic plan --json` as the next run will see it: same cache home, so the same result cache and recorded runs. */
function planned(root: string, cacheHome: string): Planned {
  const out = execFileSync(process.execPath, [CLI, 'plan', '--json'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: cacheHome },
  });
  const { estimate: e } = JSON.parse(out) as {
    estimate: {
      calls: number;
      cost_usd?: number | null;
      cached_units?: number | null;
      total_units?: number | null;
      history_runs?: number | null;
    };
  };
  return {
    calls: e.calls,
    dollars: e.cost_usd ?? null,
    cached: e.cached_units ?? null,
    units: e.total_units ?? null,
    historyRuns: e.history_runs ?? null,
  };
}

/** "175 ÷ 174 = 1.01", or the two counts when nothing was made. */
const ratio = (estimated: number, made: number) =>
  made ? `${estimated} ÷ ${made} = ${(estimated / made).toFixed(2)}` : `${estimated} estimated, ${made} made`;
const dollarsVs = (p: Planned, measured: number) =>
  p.dollars === null
    ? `$? vs $${measured.toFixed(2)}`
    : `$${p.dollars.toFixed(2)} vs $${measured.toFixed(2)} (${(p.dollars / measured).toFixed(2)}×)`;
const cachedUnits = (p: Planned) => (p.cached === null ? '' : ` (${p.cached} of ${p.units} units cached)`);

/** The repository's result cache only: the recorded runs beside it stay, so the next plan is calibrated. */
async function clearResults(cacheHome: string): Promise<void> {
  const base = join(cacheHome, 'skeptic');
  // Beside each repository's folder sits the endpoints' memory (endpoints.json), which stays like the recorded runs.
  for (const entry of await readdir(base, { withFileTypes: true }).catch(() => []))
    if (entry.isDirectory()) await rm(join(base, entry.name, 'results'), { recursive: true, force: true });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      tree: { type: 'string' },
      edit: { type: 'string' },
      cli: { type: 'string' },
      timeline: { type: 'boolean' },
    },
  });
  if (values.cli) CLI = resolve(values.cli);
  const runs = Number(values.runs);
  const tree = values.tree ? await realTree(values.tree, values.edit) : await skewedTree();
  const server = await startFakeAnthropic({
    scenario: tree.scenario,
    latencyMs: LATENCY.firstTokenMs,
    msPerOutputToken: LATENCY.msPerOutputToken,
  });
  const cacheHome = await mkdtemp(join(tmpdir(), 'skeptic-bench-cache-'));
  try {
    console.log(
      `${values.tree ? `real tree ${values.tree}` : 'skewed tree (30 files)'} · concurrency ${CONCURRENCY} · ${LATENCY.firstTokenMs} ms to first token + ${LATENCY.msPerOutputToken} ms/token · ${runs} cold runs`,
    );
    const cold: ColdFigures[] = [];
    const coldPlans: Planned[] = [];
    let lastCold: CliRun | undefined;
    await rm(cacheHome, { recursive: true, force: true });
    for (let i = 0; i < runs; i++) {
      // A cold run: no result cache, an empty prompt cache, and no outputs of an earlier run in the tree. The
      // usage recorded by earlier cold runs stays: the first plan uses the defaults, the next ones are calibrated.
      server.reset();
      await clearResults(cacheHome);
      execFileSync('git', ['clean', '-fdxq'], { cwd: tree.root });
      coldPlans.push(planned(tree.root, cacheHome));
      const bareMs = bareNode();
      const run = await runCli(server, tree.root, cacheHome);
      if (run.code !== 0) throw new Error(`the CLI exited ${run.code}: ${run.stderr.trim().split('\n').at(-1)}`);
      lastCold = run;
      const f = coldFigures(run, bareMs);
      cold.push(f);
      const p = coldPlans[i]!;
      console.log(
        `  run ${i + 1}: ${f.calls} calls · wall ${(f.wallMs / 1000).toFixed(1)} s · cache read ${pct(f.readShare)} · first file done ${f.firstFileShare.toFixed(2)} of wall · wall ÷ lower bound ${f.overBound.toFixed(2)} (${f.overBarrier.toFixed(2)} counting the Step 5 barrier) · startup ${f.startupMs} ms = ${startupRatio(f)}× bare node (${f.bareMs} ms) · $${f.cost.toFixed(2)} · plan ${ratio(p.calls, f.calls)}, ${dollarsVs(p, f.cost)} from ${p.historyRuns ? `${p.historyRuns} recorded run(s)` : 'the defaults'}`,
      );
    }
    console.log(`  last cold run by step (k tokens: read / written / uncached): ${byStep(lastCold!)}`);
    if (values.timeline) console.log(timeline(lastCold!.calls, CONCURRENCY));
    const rerunPlan = planned(tree.root, cacheHome);
    const rerun = await runCli(server, tree.root, cacheHome);
    const edited = await editOneFunction(tree.root, tree.edit);
    const editPlan = planned(tree.root, cacheHome);
    const oneEdit = await runCli(server, tree.root, cacheHome);
    const editSteps = new Map<string, number>();
    for (const c of oneEdit.calls) {
      const key = `${STEP_OF[c.record ?? ''] ?? c.record}${c.file === tree.edit ? '' : c.file ? ' (other files)' : ''}`;
      editSteps.set(key, (editSteps.get(key) ?? 0) + 1);
    }
    const m = (f: (c: ColdFigures) => number) => median(cold.map(f));
    const spread = (f: (c: ColdFigures) => number) =>
      `${Math.min(...cold.map(f)).toFixed(2)}–${Math.max(...cold.map(f)).toFixed(2)}`;
    console.log(
      [
        'medians:',
        `  cache-read share            ${pct(m((c) => c.readShare))}`,
        `  first file done ÷ wall      ${m((c) => c.firstFileShare).toFixed(2)}`,
        `  wall ÷ lower bound          ${m((c) => c.overBound).toFixed(2)} (spread ${spread((c) => c.overBound)})`,
        `  the same, Step 5 barrier    ${m((c) => c.overBarrier).toFixed(2)} (spread ${spread((c) => c.overBarrier)})`,
        `  startup (spawn → 1st call)  ${m((c) => c.startupMs ?? NaN)} ms; ÷ bare node of the same run ${m((c) => Number(startupRatio(c))).toFixed(2)} (spread ${spread((c) => Number(startupRatio(c)))}); load ${loadAverage()}`,
        `  plan ÷ calls, cold          ${ratio(coldPlans[0]!.calls, cold[0]!.calls)}`,
        `  plan ÷ calls, rerun         ${ratio(rerunPlan.calls, rerun.calls.length)}${cachedUnits(rerunPlan)}`,
        `  plan ÷ calls, one edit      ${ratio(editPlan.calls, oneEdit.calls.length)}${cachedUnits(editPlan)}`,
        `  $ plan vs made, cold        ${dollarsVs(coldPlans[0]!, cold[0]!.cost)} (the defaults)`,
        ...(runs > 1
          ? [
              `  $ plan vs made, calibrated  ${dollarsVs(coldPlans[1]!, cold[1]!.cost)} (from ${coldPlans[1]!.historyRuns} recorded run)`,
            ]
          : ['  $ plan vs made, calibrated  (needs --runs 2 or more)']),
        `  rerun calls (no flags)      ${rerun.calls.length}`,
        `  one-edit calls              ${oneEdit.calls.length}  (edited ${edited}; by step: ${[...editSteps].map(([k, n]) => `${k} ×${n}`).join(', ')})`,
      ].join('\n'),
    );
  } finally {
    await server.close();
    await rm(cacheHome, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
