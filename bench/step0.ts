/**
 * `npm run bench:step0 [-- --sizes 5000,20000] [--runs 3] [--cli NAME=PATH …]`: Step 0 (everything before
 * the first model call) of the built CLI on large real trees: copies of installed sources (C headers from
 * /usr/include, JavaScript and TypeScript from this repository's node_modules, Python's standard library),
 * each its own git repository. Per size and per CLI, run back to back so load hits each alike, it prints:
 * `skeptic plan` cold (a fresh per-user cache folder) and warm (the same folder again), and `skeptic review`
 * from spawn to its first request at the fake Messages API; wall, CPU (user+sys) and the load average for
 * each run, then medians; and one profiled `plan` whose CPU samples are split by phase (listing,
 * exclusions, secret scan, companions, estimate parse, the rest). Prints; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startFakeAnthropic } from '../test/fake-anthropic/server';
import { median, timed, type Timed } from './timed';

const REPO = resolve(__dirname, '../..');
/** Trees are built once per size and kept here between bench runs (they are the same for every CLI). */
const TREES = join(tmpdir(), 'skeptic-step0-trees');

/** Where the real files come from: a third of each tree from each source, in sorted order (whole folders). */
function sources(): Array<{ label: string; dir: string }> {
  const python = execFileSync('python3', ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], {
    encoding: 'utf8',
  }).trim();
  return [
    { label: 'c', dir: '/usr/include' },
    { label: 'js', dir: join(REPO, 'node_modules') },
    { label: 'py', dir: python },
  ];
}

async function listFiles(dir: string, out: string[] = [], limit = Infinity): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (out.length >= limit) break;
    const full = join(dir, e.name);
    // Compiled Python caches are never tracked in a real repository.
    if (e.isDirectory()) {
      if (e.name !== '__pycache__') await listFiles(full, out, limit);
    } else if (e.isFile()) out.push(full);
  }
  return out;
}

async function tree(size: number): Promise<string> {
  const root = join(TREES, String(size));
  if (await stat(join(root, '.git')).catch(() => null)) return root;
  await rm(root, { recursive: true, force: true });
  const from = sources();
  for (const [i, src] of from.entries()) {
    const quota = Math.floor(size / from.length) + (i < size % from.length ? 1 : 0);
    for (const file of await listFiles(src.dir, [], quota)) {
      const to = join(root, src.label, relative(src.dir, file));
      await mkdir(dirname(to), { recursive: true });
      await copyFile(file, to);
    }
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=bench@skeptic', '-c', 'user.name=bench', 'commit', '-qm', 'tree');
  return root;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

const PHASES: Array<[string, RegExp]> = [
  ['secret scan', /secretlint|structured-source|secretContent|secretAnchors/],
  ['estimate parse', /tree-sitter|scope\/syntax\/|inventories\.ts|functionFinder/],
  ['companions', /companion/i],
  ['exclusions', /scope\/(exclusions|access|dirCache)\.ts|regularFile\.ts/],
  ['listing', /scope\/(inventory|git)\.ts|model\/git\.ts/],
  ['estimate (rest)', /app\/estimate\.ts/],
];

/** CPU milliseconds of one profiled `plan`, by phase: each sample goes to the innermost frame of ours that names one. */
async function phases(cli: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Map<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), 'skeptic-step0-prof-'));
  execFileSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, cli, 'plan'], {
    cwd,
    env: { ...process.env, ...env },
    stdio: 'ignore',
    maxBuffer: 1 << 28,
  });
  const name = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'))!;
  const profile = JSON.parse(await readFile(join(dir, name), 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  await rm(dir, { recursive: true, force: true });
  // Each script of the build beside its source map (cli.js, or a boot stub and cli.bundle.js).
  const maps = new Map<string, SourceMap | null>();
  for (const url of new Set(profile.nodes.map((n) => n.callFrame.url))) {
    const path = url.replace(/^file:\/\//, '');
    if (path.startsWith(dirname(cli)) && path.endsWith('.js'))
      maps.set(
        url,
        await readFile(`${path}.map`, 'utf8').then(
          (t) => new SourceMap(JSON.parse(t)),
          () => null,
        ),
      );
  }
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const phaseOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = phaseOf.get(id);
    if (known) return known;
    const n = byId.get(id)!;
    const f = n.callFrame;
    let phase: string | undefined;
    if (f.functionName === '(idle)') phase = 'idle';
    else if (f.functionName === '(garbage collector)') phase = 'gc';
    else if (f.url.startsWith('wasm')) phase = 'estimate parse';
    else if (maps.get(f.url)) {
      const source = maps.get(f.url)!.findEntry(f.lineNumber, f.columnNumber);
      const file = source && 'originalSource' in source ? source.originalSource : '';
      phase = PHASES.find(([, re]) => re.test(file))?.[0];
    }
    const up = parent.get(id);
    phase ??= up === undefined ? 'other' : classify(up);
    phaseOf.set(id, phase);
    return phase;
  };
  const ms = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const phase = classify(id);
    ms.set(phase, (ms.get(phase) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return ms;
}

const s = (x: number) => `${x.toFixed(2)} s`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '5000,20000' },
      runs: { type: 'string', default: '3' },
      cli: { type: 'string', multiple: true },
      'no-review': { type: 'boolean' },
    },
  });
  const clis = (values.cli ?? [`this=${join(REPO, 'dist/cli.js')}`]).map((c) => {
    const [name, path] = c.includes('=') ? [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)] : [c, c];
    return { name, path: resolve(path) };
  });
  const runs = Number(values.runs);
  const server = await startFakeAnthropic({ latencyMs: 50 });
  const report = join(await mkdtemp(join(tmpdir(), 'skeptic-step0-out-')), 'r.md');
  try {
    for (const size of values.sizes.split(',').map(Number)) {
      const root = await tree(size);
      const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 })
        .split('\n')
        .filter(Boolean).length;
      console.log(
        `\n${files} files (${root}) · ${runs} runs per CLI, interleaved · load is the 1-minute average at each start`,
      );
      const figures = new Map(
        clis.map((c) => [c.name, { cold: [] as Timed[], warm: [] as Timed[], review: [] as Timed[] }]),
      );
      for (let r = 0; r < runs; r++) {
        for (const cli of clis) {
          const home = await mkdtemp(join(tmpdir(), 'skeptic-step0-home-'));
          const env = { XDG_CACHE_HOME: home };
          const f = figures.get(cli.name)!;
          const cold = await timed(cli.path, ['plan'], root, env);
          const warm = await timed(cli.path, ['plan'], root, env);
          f.cold.push(cold);
          f.warm.push(warm);
          const line = [
            `  ${cli.name} run ${r + 1}: plan cold ${s(cold.wall)} wall, ${s(cold.cpu)} CPU (load ${cold.load.toFixed(1)}) · warm ${s(warm.wall)} wall, ${s(warm.cpu)} CPU (load ${warm.load.toFixed(1)})`,
          ];
          if (!values['no-review']) {
            const review = await timed(
              cli.path,
              ['review', '--yes', '--max-calls', '1', '--concurrency', '1', '--out', report],
              root,
              { ...env, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url },
              server,
            );
            f.review.push(review);
            line.push(
              `· review → first request ${review.firstRequest === undefined ? 'none' : s(review.firstRequest)} (whole run ${s(review.wall)} wall, ${s(review.cpu)} CPU, load ${review.load.toFixed(1)})`,
            );
          }
          console.log(line.join(' '));
          await rm(home, { recursive: true, force: true });
        }
      }
      console.log('  medians:');
      for (const cli of clis) {
        const f = figures.get(cli.name)!;
        const m = (xs: Timed[], k: (t: Timed) => number | undefined) => s(median(xs.map((t) => k(t) ?? NaN)));
        const reviewed = /(\d+) files? under review/.exec(f.cold[0]?.stdout ?? '')?.[1];
        console.log(
          `    ${cli.name}: plan cold ${m(f.cold, (t) => t.wall)} wall / ${m(f.cold, (t) => t.cpu)} CPU · warm ${m(f.warm, (t) => t.wall)} / ${m(f.warm, (t) => t.cpu)}` +
            (f.review.length ? ` · review → first request ${m(f.review, (t) => t.firstRequest)}` : '') +
            ` · ${reviewed ?? '?'} files reviewed · ${/Excluded: .*/.exec(f.cold[0]?.stdout ?? '')?.[0] ?? ''}`,
        );
      }
      for (const cli of clis) {
        const home = await mkdtemp(join(tmpdir(), 'skeptic-step0-home-'));
        const ms = await phases(cli.path, root, { XDG_CACHE_HOME: home });
        await rm(home, { recursive: true, force: true });
        const busy = [...ms].filter(([p]) => p !== 'idle').reduce((n, [, v]) => n + v, 0);
        const order = [
          'listing',
          'exclusions',
          'secret scan',
          'companions',
          'estimate parse',
          'estimate (rest)',
          'gc',
          'other',
        ];
        console.log(
          `    ${cli.name} profiled plan (cold), CPU by phase: ${order.map((p) => `${p} ${((ms.get(p) ?? 0) / 1000).toFixed(2)}`).join(' · ')} · total ${s(busy / 1000)} (idle ${s((ms.get('idle') ?? 0) / 1000)})`,
        );
      }
    }
  } finally {
    await server.close();
    await rm(dirname(report), { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
