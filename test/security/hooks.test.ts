/**
 * `skeptic hook` in hostile and managed repositories (issue 36), through the real CLI and real git pushes:
 * husky v4 and v9 hook trees chained with --chain, a hooks folder git tracks, a hook that is a dangling link
 * out of the repository, a foreign hook that mentions Skeptic's marker, a review whose every call fails,
 * and a hook run that meets its own error.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { devNull, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { TempRepo } from '../helpers/git-repo';
import { pushableShop as pushable } from '../helpers/shop-change';

const HUSKY_CHECK = '#!/bin/sh\necho "team check ran as $(basename "$0")" >&2\n';

const push = (repo: TempRepo, env: Record<string, string> = {}) =>
  new Promise<{ status: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn('git', ['push', 'origin', 'main'], {
      cwd: repo.dir,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: devNull, ANTHROPIC_API_KEY: '', ...env },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });

describe('skeptic hook beside hook managers and in hostile repositories', function () {
  this.timeout(120_000);

  it('husky v4 (dispatch on basename "$0" in .git/hooks): the chained hook still runs as pre-push', async () => {
    const repo = pushable();
    const hooks = repo.path('.git/hooks');
    writeFileSync(join(hooks, 'pre-push'), '#!/bin/sh\n. "$(dirname "$0")/husky.sh"\n', { mode: 0o755 });
    writeFileSync(
      join(hooks, 'husky.sh'),
      'hookName=$(basename "$0")\nscript="$(git rev-parse --show-toplevel)/.husky-v4/$hookName"\n[ -f "$script" ] || exit 0\nsh "$script" "$@"\n',
    );
    mkdirSync(repo.path('.husky-v4'));
    writeFileSync(repo.path('.husky-v4/pre-push'), HUSKY_CHECK);
    const installed = await runCli(['hook', 'install', '--chain'], { cwd: repo.dir });
    assert.equal(installed.code, 0, installed.stderr);
    const run = await push(repo);
    assert.equal(run.status, 0, run.stderr);
    // Before: husky looked for .husky-v4/pre-push.before-skeptic, found nothing, and the team's check silently stopped.
    assert.match(run.stderr, /team check ran as pre-push[\s\S]*skeptic: no ANTHROPIC_API_KEY/);
  });

  it('husky v9 (core.hooksPath .husky/_, helper beside the hook): chained, run, and put back by uninstall', async () => {
    const repo = pushable();
    mkdirSync(repo.path('.husky/_'), { recursive: true });
    writeFileSync(repo.path('.husky/_/.gitignore'), '*\n');
    writeFileSync(
      repo.path('.husky/_/h'),
      'n=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\nsh -e "$s" "$@"\n',
    );
    const v9 = '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n';
    writeFileSync(repo.path('.husky/_/pre-push'), v9, { mode: 0o755 });
    writeFileSync(repo.path('.husky/pre-push'), HUSKY_CHECK);
    repo.git('config', 'core.hooksPath', '.husky/_');
    const installed = await runCli(['hook', 'install', '--chain'], { cwd: repo.dir });
    assert.equal(installed.code, 0, installed.stderr);
    const run = await push(repo);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /team check ran as pre-push[\s\S]*skeptic: no ANTHROPIC_API_KEY/);
    const removed = await runCli(['hook', 'uninstall'], { cwd: repo.dir });
    assert.match(removed.stdout, /put back the hook it ran first/);
    assert.equal(readFileSync(repo.path('.husky/_/pre-push'), 'utf8'), v9);
  });

  it('refuses a hooks folder git tracks, and a hook that is a dangling link out of the repository', async () => {
    const repo = pushable();
    writeFileSync(repo.path('githooks-readme'), '');
    mkdirSync(repo.path('githooks'));
    writeFileSync(repo.path('githooks/commit-msg'), '#!/bin/sh\n');
    repo.git('add', 'githooks');
    repo.git('commit', '-q', '-m', 'team hooks');
    repo.git('config', 'core.hooksPath', 'githooks');
    const tracked = await runCli(['hook', 'install'], { cwd: repo.dir });
    // Before: written into the tracked folder without a word.
    assert.equal(tracked.code, 2, tracked.stderr);
    assert.match(
      tracked.stderr,
      /githooks is tracked by git \(core\.hooksPath\): a hook written there would be committed/,
    );
    assert.ok(!existsSync(repo.path('githooks/pre-push')));

    repo.git('config', '--unset', 'core.hooksPath');
    const outside = join(mkdtempSync(join(tmpdir(), 'skeptic-outside-')), 'planted');
    symlinkSync(outside, repo.path('.git/hooks/pre-push'));
    const linked = await runCli(['hook', 'install'], { cwd: repo.dir });
    // Before: the hook was written through the link, outside the repository.
    assert.equal(linked.code, 2, linked.stderr);
    assert.match(linked.stderr, /pre-push is a link to nothing, out of the repository: it is left alone/);
    assert.ok(!existsSync(outside));
  });

  it('uninstall removes only a hook it wrote, by content: a hook that merely mentions the marker stays', async () => {
    const repo = pushable();
    const hook = repo.path('.git/hooks/pre-push');
    const mine = '#!/bin/sh\n# skeptic-hook: copied from a blog post\n./scripts/deploy-check\n';
    writeFileSync(hook, mine, { mode: 0o755 });
    const run = await runCli(['hook', 'uninstall'], { cwd: repo.dir });
    // Before: removed, because it mentions the marker.
    assert.match(run.stdout, /pre-push is not Skeptic's \(or was edited since\): left alone/);
    assert.equal(readFileSync(hook, 'utf8'), mine);
    // What install wrote is removed.
    assert.equal((await runCli(['hook', 'install', '--pre-commit'], { cwd: repo.dir })).code, 0);
    const removed = await runCli(['hook', 'uninstall', '--pre-commit'], { cwd: repo.dir });
    assert.match(removed.stdout, /^removed .*pre-commit$/m);
  });

  it('every reviewer failing (401) says "not reviewed", never "0 findings"; its own error never blocks the push', async () => {
    const refusing = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const repo = pushable();
      assert.equal((await runCli(['hook', 'install', '--block-on', 'must_fix'], { cwd: repo.dir })).code, 0);
      const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
      const run = await push(repo, {
        ANTHROPIC_API_KEY: 'bad',
        ANTHROPIC_BASE_URL: url,
        XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'skeptic-uc-')),
      });
      assert.equal(run.status, 0, run.stderr);
      // Before: "skeptic: 0 findings".
      assert.match(run.stderr, /skeptic: not reviewed: .*goes ahead unreviewed/);
      assert.doesNotMatch(run.stderr, /0 findings/);
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
    const repo = pushable();
    const broken = await runCli(['hook', 'run', 'pre-push', '--no-such-flag'], {
      cwd: repo.dir,
      env: { ANTHROPIC_API_KEY: 'k' },
    });
    // Before: exit 2, which blocks the push.
    assert.equal(broken.code, 0, broken.stderr);
    assert.match(broken.stderr, /skeptic: not reviewed: .*no-such-flag.*; git goes ahead/);
  });
});
