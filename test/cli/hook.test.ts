import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../fake-anthropic/scenario';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { runCli } from '../helpers/cli';
import { TempRepo } from '../helpers/git-repo';
import { pushableShop as pushable } from '../helpers/shop-change';

const LOOP: Scenario = {
  lenses: {
    logic: [
      {
        file: 'shop/cart.ts',
        line: 17,
        severity: 'CRITICAL',
        title: 'Loop reads past the end',
        evidence: 'i <= length reads items[length].',
        recommendation: 'Loop while i < length.',
        confidence: 5,
      },
    ],
  },
};

describe('skeptic hook in a temporary repository', function () {
  this.timeout(90_000);
  let server: FakeAnthropic;
  before(async () => (server = await startFakeAnthropic({ scenario: LOOP })));
  after(() => server.close());

  /** git, in its own process and asynchronously: the hook calls back into this process's fake server. */
  const gitRun = (repo: TempRepo, args: string[], env: Record<string, string>) =>
    new Promise<{ status: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn('git', args, { cwd: repo.dir, env: { ...process.env, ...env } });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stderr }));
    });
  const push = (repo: TempRepo, env: Record<string, string> = {}) =>
    gitRun(repo, ['push', 'origin', 'main'], {
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: devNull,
      XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'skeptic-user-cache-')),
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: server.url,
      ...env,
    });
  const remoteHead = (repo: TempRepo) => repo.git('ls-remote', 'origin', 'main').split('\t')[0];

  it('pre-push: reviews the commits being pushed and prints the findings; blocks only with --block-on must_fix', async () => {
    const repo = pushable();
    const installed = await runCli(['hook', 'install', '--block-on', 'must_fix'], { cwd: repo.dir });
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(
      installed.stdout,
      /^installed .*\/\.git\/hooks\/pre-push: each push gets a lens review \(at most 30 model calls\), blocked by a must-fix finding$/m,
    );
    server.reset();
    const blocked = await push(repo);
    assert.notEqual(blocked.status, 0);
    assert.match(blocked.stderr, /^ {2}must fix {2}shop\/cart\.ts:17 {2}Loop while i < length\./m);
    assert.match(blocked.stderr, /skeptic: push blocked: 1 must-fix finding \(git push --no-verify skips this hook\)/);
    assert.notEqual(remoteHead(repo), repo.git('rev-parse', 'HEAD').trim());
    // Only the pushed change was reviewed: the files it touched.
    const reviewed = new Set(server.requests.flatMap((r) => JSON.stringify(r.body).match(/shop\/[a-z.]+\.ts/g) ?? []));
    assert.ok(reviewed.has('shop/cart.ts') && reviewed.has('shop/price.ts'));

    // Reinstalled without --block-on: the same findings are printed, and the push goes through.
    assert.equal((await runCli(['hook', 'install'], { cwd: repo.dir })).code, 0);
    const through = await push(repo);
    assert.equal(through.status, 0, through.stderr);
    assert.match(through.stderr, /must fix {2}shop\/cart\.ts:17/);
    assert.equal(remoteHead(repo), repo.git('rev-parse', 'HEAD').trim());
  });

  it('without a key the push goes ahead, and says so', async () => {
    const repo = pushable();
    assert.equal((await runCli(['hook', 'install', '--block-on', 'must_fix'], { cwd: repo.dir })).code, 0);
    const run = await push(repo, { ANTHROPIC_API_KEY: '' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /skeptic: no ANTHROPIC_API_KEY in the environment: the push goes ahead unreviewed/);
  });

  it("never overwrites a foreign hook; --chain runs it first; uninstall removes only Skeptic's and puts it back", async () => {
    const repo = pushable();
    const hook = repo.path('.git/hooks/pre-commit');
    writeFileSync(hook, '#!/bin/sh\necho "lint ran" >&2\n', { mode: 0o755 });
    const refused = await runCli(['hook', 'install', '--pre-commit'], { cwd: repo.dir });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /pre-commit exists and is not Skeptic's; it is left alone \(pass --chain/);
    assert.equal(readFileSync(hook, 'utf8'), '#!/bin/sh\necho "lint ran" >&2\n');

    assert.equal((await runCli(['hook', 'install', '--pre-commit', '--chain'], { cwd: repo.dir })).code, 0);
    repo.write('shop/extra.ts', 'export const extra = (n: number) => n * 2;\n'.repeat(3));
    repo.git('add', '-A');
    const commit = await gitRun(repo, ['commit', '-q', '-m', 'extra'], {
      GIT_CONFIG_GLOBAL: devNull,
      ANTHROPIC_API_KEY: '',
    });
    assert.equal(commit.status, 0, commit.stderr);
    assert.match(commit.stderr, /lint ran[\s\S]*skeptic: no ANTHROPIC_API_KEY/);

    const removed = await runCli(['hook', 'uninstall'], { cwd: repo.dir });
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /^removed .*pre-commit\nput back the hook it ran first: .*pre-commit$/m);
    assert.equal(readFileSync(hook, 'utf8'), '#!/bin/sh\necho "lint ran" >&2\n');
    assert.ok(!existsSync(repo.path('.git/hooks/pre-push')));
    const again = await runCli(['hook', 'uninstall', '--pre-commit'], { cwd: repo.dir });
    assert.match(again.stdout, /pre-commit is not Skeptic's \(or was edited since\): left alone/);
  });
});
