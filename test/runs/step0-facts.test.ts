/**
 * What Step 0 learns about a file's content is kept in the per-user folder (src/scope/facts.ts): a warm plan
 * does not read an unchanged tracked file, a changed file is judged again, and a secret swapped in behind
 * git's back is still never sent.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildJob } from '../../src/app/buildJob';
import { runJob } from '../../src/app/runJob';
import { factsDirOf } from '../../src/app/state';
import { planCommand } from '../../src/cli/plan';
import type { CliIo } from '../../src/cli/io';
import { useFakeServer } from '../helpers/fakeServer';
import { whileOpening } from '../helpers/openSpy';

const TOKEN = 'ghp_0123456789abcdefghijklmnopqrstuvwxyz';
const code = (name: string) => `export function ${name}(x: number): number {\n  return x + 1;\n}\n`;

async function repository(files: Record<string, string>): Promise<{ cwd: string; cache: string }> {
  const root = await mkdtemp(join(tmpdir(), 'skeptic-facts-'));
  const cwd = join(root, 'repo');
  await mkdir(cwd);
  // An hour old, so that git's index is not racy about them (it would hash them again and see any change).
  const past = new Date(Date.now() - 3_600_000);
  for (const [path, text] of Object.entries(files)) {
    await writeFile(join(cwd, path), text);
    await utimes(join(cwd, path), past, past);
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=t@skeptic', '-c', 'user.name=t', 'commit', '-qm', 'files');
  return { cwd, cache: join(root, 'cache') };
}

/** `skeptic plan --json` in this process, with the per-user folder under `cache`. */
async function plan(
  cwd: string,
  cache: string,
): Promise<{
  files: { path: string; functions: { name: string }[] }[];
  exclusions: { path: string; reason: string }[];
}> {
  let out = '';
  const io = {
    cwd,
    env: { XDG_CACHE_HOME: cache },
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: () => true },
    signal: new AbortController().signal,
  } as unknown as CliIo;
  // The whole folder, named: with no path, plan would pick the uncommitted changes (auto scope).
  assert.equal(await planCommand(['--json', '.'], io), 0);
  return JSON.parse(out);
}

/** Every file opened while `work` runs, by absolute path. */
async function opened<T>(work: () => Promise<T>): Promise<{ result: T; paths: string[] }> {
  const paths: string[] = [];
  const result = await whileOpening((path) => paths.push(path), work);
  return { result, paths };
}

describe('Step 0 keeps what it learns about each content', function () {
  this.timeout(60_000);

  it('a warm plan reads no unchanged tracked file, and reads again the one changed since', async () => {
    const { cwd, cache } = await repository({ 'kept.ts': code('kept'), 'edited.ts': code('before') });
    const cold = await opened(() => plan(cwd, cache));
    assert.ok(cold.paths.includes(join(cwd, 'kept.ts')), 'the first plan reads the file (the spy sees reads)');
    assert.ok((await readdir(factsDirOf(join(cache, 'skeptic', 'repo')))).some((n) => n.endsWith('.facts')));

    await writeFile(join(cwd, 'edited.ts'), code('after') + code('more'));
    const warm = await opened(() => plan(cwd, cache));
    assert.ok(!warm.paths.includes(join(cwd, 'kept.ts')), 'an unchanged tracked file was read again');
    assert.ok(warm.paths.includes(join(cwd, 'edited.ts')), 'a changed file must be read');
    const functions = (p: Awaited<ReturnType<typeof plan>>, path: string) =>
      p.files.find((f) => f.path === path)?.functions.map((f) => f.name);
    assert.deepEqual(functions(warm.result, 'kept.ts'), ['kept'], 'the kept inventory is the one parsed before');
    assert.deepEqual(functions(warm.result, 'edited.ts'), ['after', 'more'], 'the edited file was parsed again');
  });

  it('a file sent as an outline is estimated the same warm as cold: its functions keep their signature lines', async () => {
    // Over 256 KiB, so the estimate sizes its outline from each function's signature line, below its doc comment.
    const big = Array.from(
      { length: 2500 },
      (_, i) =>
        `/**\n * Adds ${i}, documented at some length so that the comment is not the signature.\n */\nexport function add${i}(x: number): number {\n  return x + ${i};\n}\n`,
    ).join('');
    assert.ok(big.length > 256 * 1024);
    const { cwd, cache } = await repository({ 'big.ts': big });
    const cold = (await plan(cwd, cache)) as unknown as { estimate: unknown };
    const warm = await opened(() => plan(cwd, cache));
    assert.ok(warm.paths.includes(join(cwd, 'big.ts')), 'an outline needs the text of its signature lines');
    assert.deepEqual((warm.result as unknown as { estimate: unknown }).estimate, cold.estimate);
  });

  it('a file that gains a secret is scanned again and left out', async () => {
    const { cwd, cache } = await repository({ 'a.ts': code('a'), 'config.ts': code('config') });
    assert.deepEqual((await plan(cwd, cache)).exclusions, []);
    await writeFile(join(cwd, 'config.ts'), `${code('config')}export const token = '${TOKEN}';\n`);
    const warm = await plan(cwd, cache);
    assert.deepEqual(warm.exclusions, [{ path: 'config.ts', reason: 'secret', detail: 'GITHUB_TOKEN on line 4' }]);
    assert.deepEqual(
      warm.files.map((f) => f.path),
      ['a.ts'],
    );
  });

  describe('a secret swapped in where git still sees the old content', () => {
    const fake = useFakeServer();

    it('is caught when the file is read to be sent: the run never sends it', async () => {
      const { cwd, cache } = await repository({
        'a.ts': code('a'),
        'b.ts': code('bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'),
      });
      assert.deepEqual((await plan(cwd, cache)).exclusions, [], 'learnt: b.ts holds no secret');
      // Same size, same times, and git told to trust them: its index still gives b.ts's old blob id.
      const git = (...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });
      git('config', 'core.trustctime', 'false');
      git('config', 'core.checkStat', 'minimal');
      const before = await stat(join(cwd, 'b.ts'));
      const swapped = `export const t = '${TOKEN}';\n`.padEnd(before.size - 1, ' ') + '\n';
      assert.equal(Buffer.byteLength(swapped), before.size);
      await writeFile(join(cwd, 'b.ts'), swapped);
      await utimes(join(cwd, 'b.ts'), before.atime, before.mtime);
      assert.equal(git('ls-files', '-m').trim(), '', 'git does not see the change (the case under test)');
      assert.ok(
        (await plan(cwd, cache)).files.some((f) => f.path === 'b.ts'),
        'Step 0 went by what it knew',
      );

      const stateDir = join(cache, 'skeptic', 'repo-state');
      const job = buildJob(
        { cwd, scope: { kind: 'paths', paths: ['.'] }, baseUrl: fake.server.url, cacheResults: false },
        { apiKey: 'k', stateDir },
      );
      const outcome = await runJob(job, { emit: () => undefined, signal: new AbortController().signal });
      assert.equal(outcome.kind, 'ran');
      const sent = JSON.stringify(fake.server.requests.map((r) => r.body));
      assert.ok(sent.includes('export function a'), 'the run sent the other file');
      assert.ok(!sent.includes(TOKEN), 'the swapped-in secret reached the API');
      const b = outcome.kind === 'ran' ? outcome.result.files.find((f) => f.path === 'b.ts') : undefined;
      assert.equal(b?.status, 'failed');
      assert.match(b?.reason ?? '', /may hold secrets/);
      if (outcome.kind === 'ran') assert.ok(!outcome.outputs?.markdown.includes(TOKEN));
    });
  });
});
