import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Batcher } from '../../src/engine/batch';
import { BatchLedger } from '../../src/engine/batchLedger';
import { withFileLock } from '../../src/io/fileLock';

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
    const a = new BatchLedger(file, { review: 'staged review of shop' });
    const b = new BatchLedger(file, { review: 'lenses review of src' });
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

  it('waits for a lock another run holds before it writes, and writes the changes made meanwhile at once', async () => {
    /** The real lock, counted, saying when a write first asks for it. */
    let writes = 0;
    let asked!: () => void;
    const asking = new Promise<void>((resolve) => (asked = resolve));
    const lock: typeof withFileLock = (path, update) => {
      if (++writes === 2) asked();
      return withFileLock(path, update);
    };
    const ledger = new BatchLedger(file, { lock });
    await ledger.add(entry('msgbatch_a', 'x'));
    await writeFile(`${file}.lock`, '1\n');
    const adding = ledger.add(entry('msgbatch_b', 'y'));
    await asking;
    // Changes made while that write waits for the lock queue behind it, each applied in order.
    const more = [
      ledger.add(entry('msgbatch_c', 'z')),
      ledger.drop('msgbatch_a'),
      ledger.add(entry('msgbatch_d', 'w')),
    ];
    assert.equal((await ledger.load()).length, 1, 'not written while the lock is held');
    await rm(`${file}.lock`);
    await Promise.all([adding, ...more]);
    assert.deepEqual(
      (await ledger.load()).map((e) => e.id),
      ['msgbatch_b', 'msgbatch_c', 'msgbatch_d'],
    );
    assert.equal(writes, 3, 'the first add, the one that waited, then the three queued behind it together');
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

describe('a batch run stopped while its batch is being created', () => {
  /** A batcher on an SDK whose create is `create`, with one request sent and create called. */
  async function sendOne(create: () => Promise<unknown>) {
    const file = join(await mkdtemp(join(tmpdir(), 'skeptic-ledger-')), 'batches.json');
    let called!: () => void;
    const creating = new Promise<void>((resolve) => (called = resolve));
    const sdk = {
      messages: {
        batches: { create: () => (called(), create()), retrieve: () => new Promise(() => undefined) },
      },
    };
    const controller = new AbortController();
    const warnings: string[] = [];
    /** Settles when the run says it is trying to create the batch again (after an overload). */
    let said!: () => void;
    const retrying = new Promise<void>((resolve) => (said = resolve));
    const batcher = new Batcher(
      sdk as unknown as Anthropic,
      { timeoutMs: 60_000, ledger: new BatchLedger(file) },
      {
        signal: controller.signal,
        onState: (s) => s.message.startsWith('creating a batch:') && said(),
        onWarning: (m) => warnings.push(m),
        describe: String,
        deadline: (m) => new Error(m),
      },
    );
    const params = { model: 'claude-test', max_tokens: 10, messages: [{ role: 'user' as const, content: 'hi' }] };
    const reply = batcher.send(params, 'a'.repeat(64));
    await creating;
    const stop = () => controller.abort(new Error('interrupted'));
    return { file, batcher, reply, warnings, stop, retrying };
  }

  it('names it in the stop message, with skeptic batches --cancel, and keeps it in the ledger once created', async () => {
    let create!: (batch: { id: string; created_at: string }) => void;
    const run = await sendOne(() => new Promise((resolve) => (create = resolve)));
    try {
      run.stop();
      assert.deepEqual(run.warnings, [
        'stopped; batches still being created for 1 request: run the same review again to collect their results instead of paying for them again (the API keeps them 29 days), or stop what has not run yet with skeptic batches --cancel',
      ]);
      create({ id: 'msgbatch_late', created_at: new Date().toISOString() });
      await assert.rejects(run.reply, /interrupted/);
      assert.deepEqual(
        (await new BatchLedger(run.file).load()).map((e) => e.id),
        ['msgbatch_late'],
      );
    } finally {
      run.batcher.close();
    }
  });

  it('names none waiting to try again after an overload: the stop ends them before any batch is made', async () => {
    const overloaded = Anthropic.APIError.generate(
      529,
      { error: { type: 'overloaded_error' } },
      'Overloaded',
      new Headers(),
    );
    const run = await sendOne(() => Promise.reject(overloaded));
    try {
      await run.retrying;
      run.stop();
      assert.deepEqual(run.warnings, []);
      await assert.rejects(run.reply, /interrupted/);
      assert.deepEqual(await new BatchLedger(run.file).load(), []);
    } finally {
      run.batcher.close();
    }
  });
});
