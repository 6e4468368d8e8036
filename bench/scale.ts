/**
 * `npm run bench:scale [-- --files 9400] [--runs 3] [--cli NAME=PATH …] [--batch-folder py|none]`: Step 0 and `plan` of the built CLI on
 * a large tree of real sources (installed packages' own sources: node_modules/<pkg>/src, Python's
 * site-packages, /usr/include), one git repository, against the time to `cat` every file of it. Per run,
 * back to back so load hits each alike: `cat` of every file; `skeptic plan` cold (a fresh per-user cache
 * folder) and warm (the same folder again); `skeptic review` from spawn to its first request at the fake
 * Messages API, warm and cold. Wall, CPU and peak memory of each, then medians and the ratios to `cat`. Then a
 * whole review of one folder of the tree (`--batch-folder`, default its ~4,000 Python files) live and through the
 * Message Batches API: calls, cost, time, peak memory, rounds. Then a review through the Message Batches API
 * against the same review live on small trees (bench/batch.ts).
 * Prints; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startFakeAnthropic } from '../test/fake-anthropic/server';
import { batchAgainstLive } from './batch';
import { median, timed, timedCommand, type Timed } from './timed';

const REPO = resolve(__dirname, '../..');
/** Built once per size and kept between bench runs. */
const TREES = join(tmpdir(), 'skeptic-scale-trees');

/** Where the files come from, in sorted order, and each source's share of the tree. */
function sources(): Array<{ label: string; share: number; files: () => Promise<string[]> }> {
  const sitePackages = execFileSync('python3', ['-c', 'import site; print(site.getsitepackages()[0])'], {
    encoding: 'utf8',
  }).trim();
  const packageSources = async () => {
    const nm = join(REPO, 'node_modules');
    const names = (await readdir(nm)).sort();
    const packages = (
      await Promise.all(
        names.map(async (n) => (n.startsWith('@') ? (await readdir(join(nm, n))).sort().map((p) => `${n}/${p}`) : [n])),
      )
    ).flat();
    const out: string[] = [];
    for (const p of packages) await listFiles(join(nm, p, 'src'), out, () => true);
    return out;
  };
  return [
    { label: 'js', share: 0.15, files: packageSources },
    { label: 'py', share: 0.425, files: () => listFiles(sitePackages, [], (f) => f.endsWith('.py')) },
    { label: 'c', share: 0.425, files: () => listFiles('/usr/include', [], () => true) },
  ];
}

async function listFiles(dir: string, out: string[], keep: (file: string) => boolean): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      // Compiled Python caches and nested installs are never sources of the package itself.
      if (e.name !== '__pycache__' && e.name !== 'node_modules') await listFiles(full, out, keep);
    } else if (e.isFile() && keep(full)) out.push(full);
  }
  return out;
}

async function tree(size: number): Promise<string> {
  const root = join(TREES, String(size));
  if (await stat(join(root, '.git')).catch(() => null)) return root;
  await rm(root, { recursive: true, force: true });
  let left = size;
  const from = sources();
  for (const [i, src] of from.entries()) {
    const quota = i === from.length - 1 ? left : Math.round(size * src.share);
    const files = await src.files();
    const base = files.length ? commonFolder(files) : '';
    for (const file of files.slice(0, quota)) {
      const to = join(root, src.label, relative(base, file));
      await mkdir(dirname(to), { recursive: true });
      await copyFile(file, to);
    }
    left -= Math.min(quota, files.length);
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=bench@skeptic', '-c', 'user.name=bench', 'commit', '-qm', 'tree');
  return root;
}

function commonFolder(files: string[]): string {
  let base = dirname(files[0]!);
  while (!files.every((f) => f.startsWith(`${base}/`))) base = dirname(base);
  return base;
}

/** `cat` of every file git lists, to /dev/null: the floor a plan is measured against. */
async function catAll(root: string): Promise<Timed> {
  return timedCommand(['/bin/sh', '-c', 'git ls-files -z | xargs -0 cat > /dev/null'], root, {});
}

const s = (x: number) => `${x.toFixed(2)} s`;
const mb = (x: number) => `${Math.round(x)} MB`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      files: { type: 'string', default: '9400' },
      runs: { type: 'string', default: '3' },
      cli: { type: 'string', multiple: true },
      'batch-folder': { type: 'string', default: 'py' },
    },
  });
  const clis = (values.cli ?? [`this=${join(REPO, 'dist/cli.js')}`]).map((c) => {
    const [name, path] = c.includes('=') ? [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)] : [c, c];
    return { name, path: resolve(path) };
  });
  const runs = Number(values.runs);
  const server = await startFakeAnthropic({ latencyMs: 50 });
  const report = join(await mkdtemp(join(tmpdir(), 'skeptic-scale-out-')), 'r.md');
  try {
    const root = await tree(Number(values.files));
    const count = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 })
      .split('\n')
      .filter(Boolean).length;
    console.log(
      `${count} files (${root}) · ${runs} runs per CLI, interleaved · load: the 1-minute average at each start`,
    );
    const cats: Timed[] = [];
    const figures = new Map(
      clis.map((c) => [
        c.name,
        { cold: [] as Timed[], warm: [] as Timed[], first: [] as Timed[], firstCold: [] as Timed[] },
      ]),
    );
    const review = ['review', '--yes', '--max-calls', '1', '--concurrency', '1', '--out', report];
    const api = { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url };
    for (let r = 0; r < runs; r++) {
      const cat = await catAll(root);
      cats.push(cat);
      console.log(`  run ${r + 1}: cat ${s(cat.wall)} wall, ${s(cat.cpu)} CPU (load ${cat.load.toFixed(1)})`);
      for (const cli of clis) {
        const f = figures.get(cli.name)!;
        const home = await mkdtemp(join(tmpdir(), 'skeptic-scale-home-'));
        const other = await mkdtemp(join(tmpdir(), 'skeptic-scale-home-'));
        const cold = await timed(cli.path, ['plan'], root, { XDG_CACHE_HOME: home });
        const warm = await timed(cli.path, ['plan'], root, { XDG_CACHE_HOME: home });
        const first = await timed(cli.path, review, root, { XDG_CACHE_HOME: home, ...api }, server);
        const firstCold = await timed(cli.path, review, root, { XDG_CACHE_HOME: other, ...api }, server);
        f.cold.push(cold);
        f.warm.push(warm);
        f.first.push(first);
        f.firstCold.push(firstCold);
        const one = (t: Timed) => `${s(t.wall)} wall, ${s(t.cpu)} CPU, ${mb(t.rssMb)} (load ${t.load.toFixed(1)})`;
        console.log(`    ${cli.name}: plan cold ${one(cold)} · warm ${one(warm)}`);
        console.log(
          `    ${cli.name}: review → first request ${first.firstRequest === undefined ? 'none' : s(first.firstRequest)} warm, ${firstCold.firstRequest === undefined ? 'none' : s(firstCold.firstRequest)} cold (peak ${mb(Math.max(first.rssMb, firstCold.rssMb))})`,
        );
        await rm(home, { recursive: true, force: true });
        await rm(other, { recursive: true, force: true });
      }
    }
    const catWall = median(cats.map((c) => c.wall));
    console.log(`  medians: cat ${s(catWall)} wall, ${s(median(cats.map((c) => c.cpu)))} CPU`);
    for (const cli of clis) {
      const f = figures.get(cli.name)!;
      const m = (xs: Timed[], k: (t: Timed) => number | undefined) => median(xs.map((t) => k(t) ?? NaN));
      const cold = m(f.cold, (t) => t.wall);
      const warm = m(f.warm, (t) => t.wall);
      const peak = Math.max(...[...f.cold, ...f.warm].map((t) => t.rssMb));
      console.log(
        `    ${cli.name}: plan cold ${s(cold)} = ${(cold / catWall).toFixed(1)}× cat (goal ≤ 20×), ${s(m(f.cold, (t) => t.cpu))} CPU` +
          ` · warm ${s(warm)} = ${(warm / catWall).toFixed(1)}× cat (goal ≤ 5×), ${s(m(f.warm, (t) => t.cpu))} CPU` +
          ` · peak ${mb(peak)} (goal ≤ 300 MB)` +
          ` · review → first request ${s(m(f.first, (t) => t.firstRequest))} warm, ${s(m(f.firstCold, (t) => t.firstRequest))} cold`,
      );
      console.log(
        `    ${cli.name}: ${/\d+ files? under review[^\n]*/.exec(f.cold[0]?.stdout ?? '')?.[0] ?? ''} · ${/Excluded: .*/.exec(f.cold[0]?.stdout ?? '')?.[0] ?? ''}`,
      );
    }
  } finally {
    await server.close();
    await rm(dirname(report), { recursive: true, force: true });
  }
  if (values['batch-folder'] !== 'none') await largeBatch(join(TREES, values.files), values['batch-folder']);
  // A batch run against the same review live (bench/batch.ts).
  for (const figures of await batchAgainstLive()) console.log(figures);
}

/**
 * A whole review of one large folder of the tree (default its ~4,000 Python files), live and then through the
 * Message Batches API, each from a fresh cache folder against a fresh fake: calls, cost, wall time and peak
 * memory of each, and the batch run's rounds and batches.
 */
async function largeBatch(root: string, folder: string): Promise<void> {
  const cli = join(REPO, 'dist/cli.js');
  const run = async (batch: boolean) => {
    // The fake keeps only its newest requests: a whole-folder review would fill memory with them.
    const server = await startFakeAnthropic({ logLimit: 1000 });
    const home = await mkdtemp(join(tmpdir(), 'skeptic-scale-home-'));
    const out = await mkdtemp(join(tmpdir(), 'skeptic-scale-out-'));
    try {
      const args = ['review', folder, '--yes', '--out', join(out, 'r.md'), ...(batch ? ['--batch'] : [])];
      const env = { XDG_CACHE_HOME: home, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url };
      const t = await timed(cli, args, root, env, server);
      const calls = /(\d+) model calls, cost ≈ \$([\d.]+)/.exec(t.stdout);
      const rounds = /(\d+) rounds?, (\d+) batch/.exec(t.stdout);
      return `${calls?.[1]} calls · $${calls?.[2]} · ${s(t.wall)} wall, ${s(t.cpu)} CPU · peak ${mb(t.rssMb)}${rounds ? ` · ${rounds[1]} rounds, ${rounds[2]} batches` : ''}`;
    } finally {
      await server.close();
      await rm(home, { recursive: true, force: true });
      await rm(out, { recursive: true, force: true });
    }
  };
  const files = execFileSync('git', ['ls-files', folder], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 })
    .split('\n')
    .filter(Boolean).length;
  console.log(`whole review of ${folder}/ (${files} files), live then --batch:`);
  console.log(`  live : ${await run(false)}`);
  console.log(`  batch: ${await run(true)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
