/**
 * The auto scope asks its questions at once (the top folder, gh, git status) and lists the repository while gh and
 * git status decide the scope: when the whole folder is the scope, Step 0 takes that listing instead of asking git
 * again after them.
 */
import assert from 'node:assert/strict';
import childProcess from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { autoScope } from '../../src/app/autoScope';
import { takeInventory } from '../../src/scope/inventory';

interface Spawned {
  command: string;
  started: number;
  ended?: number;
}

/** Every execFile while `work` runs, in the order they started, with the moment each answered (a counter). */
async function spawned<T>(work: () => Promise<T>): Promise<{ result: T; calls: Spawned[] }> {
  const real = childProcess.execFile;
  const calls: Spawned[] = [];
  let clock = 0;
  (childProcess as { execFile: unknown }).execFile = (file: string, args: string[], ...rest: unknown[]) => {
    const call: Spawned = { command: [file, ...args].join(' '), started: clock++ };
    calls.push(call);
    const done = rest.pop() as (...answer: unknown[]) => void;
    return (real as (...a: unknown[]) => unknown)(file, args, ...rest, (...answer: unknown[]) => {
      call.ended = clock++;
      done(...answer);
    });
  };
  try {
    return { result: await work(), calls };
  } finally {
    (childProcess as { execFile: unknown }).execFile = real;
  }
}

describe('the auto scope and Step 0 share the listing', function () {
  this.timeout(30_000);

  it('asks git status beside the top folder, and lists the whole folder once without waiting for the status', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-auto-listing-'));
    try {
      await writeFile(join(cwd, 'a.ts'), 'export const a = 1;\n');
      const git = (...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });
      git('init', '-q');
      git('add', '-A');
      git('-c', 'user.email=t@skeptic', '-c', 'user.name=t', 'commit', '-qm', 'a');
      const { result, calls } = await spawned(async () => {
        const chosen = await autoScope(cwd);
        return { chosen, inventory: await takeInventory(['.'], { cwd }) };
      });
      assert.deepEqual(result.chosen.scope, { kind: 'paths', paths: ['.'] });
      assert.deepEqual(
        result.inventory.discovery.file_entries.map((e) => e.path),
        ['a.ts'],
      );
      const listings = calls.filter((c) => c.command.includes('ls-files'));
      const status = calls.find((c) => c.command.includes(' status '));
      const top = calls.find((c) => c.command.includes('--show-toplevel'));
      assert.equal(listings.length, 1, 'git listed the folder again for Step 0');
      assert.ok(status?.ended !== undefined && top?.ended !== undefined);
      assert.ok(status.started < top.ended, 'git status waited for the top folder');
      // The listing needs the top folder; once that is known it waits for nothing else.
      assert.ok(status.ended < top.ended || listings[0]!.started < status.ended, 'the listing waited for git status');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
