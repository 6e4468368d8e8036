import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BatchLedger } from '../../src/engine/batchLedger';

const entry = (id: string, ...customIds: string[]) => ({
  id,
  created_at: new Date().toISOString(),
  requests: Object.fromEntries(customIds.map((c) => [c, `hash-${c}`])),
});

describe('the batch ledger', () => {
  let file: string;
  beforeEach(async () => (file = join(await mkdtemp(join(tmpdir(), 'skeptic-ledger-')), 'state', 'batches.json')));

  it('two runs of one repository keep each other’s batches: each change re-reads the file under its lock', async () => {
    // Two runs, each with its own ledger on the same file.
    const a = new BatchLedger(file, 'staged review of shop');
    const b = new BatchLedger(file, 'lenses review of src');
    await Promise.all([a.add(entry('msgbatch_a', 'x', 'y')), b.add(entry('msgbatch_b', 'z'))]);
    await a.drop('msgbatch_a', ['x']);
    assert.deepEqual(
      (await b.load()).map((e) => [e.id, e.review, Object.keys(e.requests)]),
      [
        ['msgbatch_a', 'staged review of shop', ['y']],
        ['msgbatch_b', 'lenses review of src', ['z']],
      ],
    );
    await b.drop('msgbatch_a');
    assert.deepEqual(
      (await a.load()).map((e) => e.id),
      ['msgbatch_b'],
    );
  });

  it('waits for a lock another run holds before it writes', async () => {
    const ledger = new BatchLedger(file);
    await ledger.add(entry('msgbatch_a', 'x'));
    await writeFile(`${file}.lock`, '1\n');
    const adding = ledger.add(entry('msgbatch_b', 'y'));
    await sleep(100);
    assert.equal((await ledger.load()).length, 1, 'not written while the lock is held');
    await rm(`${file}.lock`);
    await adding;
    assert.equal((await ledger.load()).length, 2);
  });

  it('forgets a batch once none of its requests is left, and one the API no longer keeps', async () => {
    const ledger = new BatchLedger(file);
    await mkdir(dirname(file), { recursive: true });
    const aged = new Date(Date.now() - 30 * 24 * 3600_000).toISOString();
    await writeFile(file, JSON.stringify([{ ...entry('msgbatch_old', 'o'), created_at: aged }]));
    await ledger.add(entry('msgbatch_a', 'x', 'y'));
    await ledger.drop('msgbatch_a', ['x', 'y']);
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), []);
  });
});
