import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeOutputs } from '../../src/app/output';
import type { StagedResult } from '../../src/model/events';
import { emptyUsage } from '../../src/model/usage';
import { TempRepo } from '../helpers/git-repo';

const result = (): StagedResult => ({
  mode: 'staged',
  models: { review: 'm' },
  effort: { review: 'high' },
  reviewRoots: ['.'],
  files: [],
  findings: [],
  filtered: [],
  failed: [],
  synthesis: null,
  usage: emptyUsage(),
  usageByStep: {},
  retries: 0,
  failedAttempts: 0,
  repairs: 0,
  cacheHits: 0,
  recovered: 0,
  notes: [],
});

describe('where reports go', () => {
  it('keeps reports under .skeptic/reports out of git, but not the team dismissal file', async () => {
    const repo = new TempRepo();
    repo.write('a.ts', 'x\n').git('add', '.');
    repo.git('commit', '-qm', 'a');
    const written = await writeOutputs(result(), { cwd: repo.dir, reportFolder: join(repo.dir, '.skeptic/reports') });
    assert.ok(existsSync(written.reportPath));
    assert.equal(repo.git('status', '--porcelain', '--untracked-files=all'), '');
    repo.write('.skeptic/dismissed.json', '{"version":1,"dismissed":[]}\n');
    assert.equal(repo.git('status', '--porcelain', '--untracked-files=all').trim(), '?? .skeptic/dismissed.json');
  });

  it('names a change review after the change: staged, changes, the branch, the pull request', async () => {
    const repo = new TempRepo();
    repo.write('a.ts', 'x\n').git('add', '.');
    repo.git('commit', '-qm', 'a');
    repo.git('checkout', '-qb', 'feature/cart-fix');
    const name = async (scope: Parameters<typeof writeOutputs>[1]['scope']) =>
      (await writeOutputs(result(), { cwd: repo.dir, ...(scope ? { scope } : {}) })).reportPath.slice(
        repo.dir.length + 1,
      );
    assert.equal(await name({ kind: 'staged' }), 'code-review-staged.md');
    assert.equal(await name({ kind: 'changes' }), 'code-review-changes.md');
    assert.equal(await name({ kind: 'branch', base: 'main' }), 'code-review-feature-cart-fix.md');
    assert.equal(await name({ kind: 'pr', number: 12 }), 'code-review-pr-12.md');
    assert.match(await name({ kind: 'paths', paths: ['.'] }), /^code-review-skeptic-scope-/);
  });
});
