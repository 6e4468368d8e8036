import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { runCli } from '../helpers/cli';
import { TempRepo } from '../helpers/git-repo';

/**
 * A PATH with git and, if given, a gh that answers as `gh` says (the other commands fail). `authAfterView`: its
 * `auth status` answers only once `pr view` has been asked (it gives up, signed out, after 10 s).
 */
function pathWith(gh?: { auth: boolean; pr?: object; authAfterView?: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'skeptic-path-'));
  symlinkSync(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(), join(dir, 'git'));
  if (gh) {
    const script = join(dir, 'gh.js');
    writeFileSync(
      script,
      `const fs = require('node:fs');
const viewed = ${JSON.stringify(join(dir, 'viewed'))};
const a = process.argv.slice(2).join(' ');
if (a === 'auth status') {
  const until = Date.now() + 10000;
  const answer = () => process.exit(${gh.auth ? 0 : 1});
  if (!${Boolean(gh.authAfterView)}) answer();
  const poll = setInterval(() => { if (fs.existsSync(viewed)) answer(); else if (Date.now() > until) process.exit(1); }, 20);
} else if (a === 'pr view --json number,state,headRefName') {
  fs.writeFileSync(viewed, '');
  ${gh.pr ? `process.stdout.write(${JSON.stringify(JSON.stringify(gh.pr))});` : `process.stderr.write('no pull requests found for branch "feature"\\n'); process.exit(1);`}
} else { process.stderr.write('unexpected: ' + a + '\\n'); process.exit(1); }
`,
    );
    writeFileSync(join(dir, 'gh'), `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`);
    chmodSync(join(dir, 'gh'), 0o755);
  }
  return dir;
}

describe('the auto-detected scope of skeptic plan and review without one', function () {
  this.timeout(60_000);
  const firstLine = async (repo: { dir: string }, path: string, ...args: string[]) => {
    const run = await runCli(['plan', ...args], { cwd: repo.dir, env: { PATH: path } });
    assert.equal(run.code, 0, run.stderr);
    return run.stdout.split('\n')[0];
  };
  const committed = () => new TempRepo().write('a.ts', 'export const a = 1;\n').commit('a');

  it('no gh and nothing uncommitted: the whole folder', async () => {
    assert.equal(
      await firstLine(committed(), pathWith()),
      'Scope: the whole folder (auto: gh is not installed; no uncommitted changes)',
    );
  });

  it('uncommitted changes, untracked files included, when there is no pull request', async () => {
    const repo = committed().write('new.ts', 'export const n = 2;\n').write('a.ts', 'export const a = 3;\n');
    assert.equal(
      await firstLine(repo, pathWith({ auth: false })),
      'Scope: uncommitted changes (auto: gh is not signed in; 2 files changed, staged or untracked)',
    );
    assert.equal(
      await firstLine(repo, pathWith({ auth: true })),
      'Scope: uncommitted changes (auto: no pull request for this branch; 2 files changed, staged or untracked)',
    );
  });

  it("the branch's open pull request first; a merged one does not count", async () => {
    const repo = committed();
    const run = await runCli(['plan'], {
      cwd: repo.dir,
      env: { PATH: pathWith({ auth: true, pr: { number: 12, state: 'OPEN', headRefName: 'main' } }) },
    });
    // The scope is chosen, then reviewing it asks gh for the PR itself, which this gh does not answer.
    assert.equal(
      run.stdout.split('\n')[0],
      'Scope: pull request #12 (auto: the open pull request of this branch, from gh)',
    );
    assert.match(run.stderr, /gh pr (view|diff) 12 failed/);
    const merged = pathWith({ auth: true, pr: { number: 12, state: 'MERGED', headRefName: 'main' } });
    assert.equal(
      await firstLine(repo, merged),
      "Scope: the whole folder (auto: the branch's pull request #12 is merged; no uncommitted changes)",
    );
  });

  it("asks gh for the branch's pull request while it asks whether gh is signed in, not after", async () => {
    const path = pathWith({ auth: true, authAfterView: true, pr: { number: 7, state: 'MERGED', headRefName: 'main' } });
    assert.equal(
      await firstLine(committed(), path),
      "Scope: the whole folder (auto: the branch's pull request #7 is merged; no uncommitted changes)",
    );
  });

  it('a path or a scope flag is never second-guessed; outside git, the whole folder', async () => {
    const repo = committed().write('new.ts', 'export const n = 2;\n');
    assert.match(await firstLine(repo, pathWith(), '.'), /^Scope: \.$/);
    assert.equal(await firstLine(repo, pathWith(), '--staged', '--force'), 'Scope: staged changes');
    const plain = new TempRepo({ init: false }).write('a.ts', 'export const a = 1;\n');
    assert.equal(await firstLine(plain, pathWith()), 'Scope: the whole folder (auto: not a git repository)');
    const json = await runCli(['plan', '--json'], { cwd: repo.dir, env: { PATH: pathWith() + delimiter } });
    assert.doesNotThrow(() => JSON.parse(json.stdout), 'with --json, the line goes to stderr');
    assert.match(json.stderr, /^Scope: uncommitted changes/m);
  });
});
