import assert from 'node:assert/strict';
import { Schedule } from '../../src/engine/staged/schedule';
import type { FileStep } from '../../src/model/models';
import { Semaphore } from '../../src/model/semaphore';

/** One granted call: the file, the step, and when it was started and answered, in rounds of virtual time. */
interface Served {
  file: string;
  step: FileStep;
  start: number;
  end: number;
}

/**
 * A staged run's calls through the run's Semaphore and Schedule, as src/engine/staged/pipeline.ts and
 * context.ts make them (the schedule told of each step before its calls, each answer counted), against a
 * model that answers every call one round after it starts. Answers come one at a time, each once everything
 * it set off has queued, so the order is the schedule's alone: no network, no clock.
 */
async function simulate(files: Array<{ name: string; units: number }>, slots: number): Promise<Served[]> {
  const schedule = new Schedule(slots);
  const semaphore = new Semaphore(slots);
  const served: Served[] = [];
  const inFlight: Array<{ served: Served; answer: () => void }> = [];
  let now = 0;
  const call = async (order: number, step: FileStep) => {
    await semaphore.run(
      () =>
        new Promise<void>((answer) => {
          const s: Served = { file: files[order]!.name, step, start: now, end: now + 1 };
          served.push(s);
          inFlight.push({ served: s, answer });
        }),
      undefined,
      schedule.priority(order, step),
    );
    schedule.answered(order);
  };
  const review = async (order: number, units: number) => {
    schedule.expect(order, 'curate', units);
    for (const step of ['curate', 'analyze', 'review', 'challenge'] as const) {
      schedule.expect(order, step, step === 'challenge' ? 0 : units);
      await Promise.all(Array.from({ length: step === 'review' ? units : 1 }, () => call(order, step)));
    }
    schedule.finish(order);
  };
  // As the pipeline does before any file is read: each file counted as one Step 3 call.
  files.forEach((_, order) => schedule.expect(order, 'curate', 1));
  const done = Promise.all(files.map((f, order) => review(order, f.units)));
  let finished = false;
  void done.then(() => (finished = true));
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  for (await settle(); !finished; await settle()) {
    inFlight.sort((a, b) => a.served.end - b.served.end);
    const next = inFlight.shift();
    assert.ok(next, 'calls wait while no call is in flight');
    now = next.served.end;
    next.answer();
  }
  return served;
}

describe('the staged schedule', () => {
  it('starts the file whose chain is the run’s long pole at once, and the run takes no more rounds than the slots need', async () => {
    // Eight files of two functions (four calls each), then one of 120 (15 Step 3 calls: 18 calls in a chain of
    // 11 rounds of two slots), last in the start order: 50 calls, at best 25 rounds. Later steps first alone
    // would start its chain after every other file's (at the 28th call) and end the run a round late, on it alone.
    const files = [...Array.from({ length: 8 }, (_, i) => ({ name: `a${i}`, units: 1 })), { name: 'z', units: 15 }];
    const served = await simulate(files, 2);
    assert.equal(served.length, 50);
    const zCurate = served.findIndex((s) => s.file === 'z' && s.step === 'curate');
    assert.equal(zCurate, 2, 'only the two calls that found a slot free go before it');
    assert.equal(Math.max(...served.map((s) => s.end)), 25);
  });

  it('otherwise serves later steps first, then the file that started first, so the first files finish early', async () => {
    // Twelve files of one Step 3 call: none is critical until the last few; first come would run twelve Step 1s first.
    const files = Array.from({ length: 12 }, (_, i) => ({ name: `f${i}`, units: 1 }));
    const served = await simulate(files, 2);
    const start = (file: string, step: FileStep) => served.find((s) => s.file === file && s.step === step)!.start;
    assert.ok(start('f0', 'challenge') < start('f4', 'curate'), served.map((s) => `${s.file}:${s.step}`).join(' '));
  });

  it('ranks a waiting call by step, then start order; a critical file’s above all, the longest chain first', async () => {
    const schedule = new Schedule(1);
    // Forty files expected of one Step 3 call: 160 calls, so no chain of four rounds is critical.
    for (let order = 0; order < 40; order++) schedule.expect(order, 'curate', 1);
    schedule.expect(3, 'challenge', 0);
    schedule.expect(2, 'review', 1);
    const granted = await grantOrder(schedule, [
      [0, 'curate'],
      [1, 'curate'],
      [2, 'review'],
      [3, 'challenge'],
    ]);
    assert.deepEqual(granted, [3, 2, 0, 1]);

    // With few calls left beside them, long chains are critical: 60 Step 3 calls in a row outrank 30, and both
    // outrank the small file's later step.
    const late = new Schedule(1);
    late.expect(0, 'challenge', 0);
    late.expect(1, 'curate', 30);
    late.expect(2, 'curate', 60);
    assert.deepEqual(
      await grantOrder(late, [
        [0, 'challenge'],
        [1, 'curate'],
        [2, 'curate'],
      ]),
      [2, 1, 0],
    );

    // Among critical files, the longest chain in rounds goes first, not the most calls: over two slots, four
    // Step 3 calls and a challenge are 5 calls in 3 rounds; a file at Step 1 has 4 calls in 4 rounds.
    const poles = new Schedule(2);
    poles.expect(0, 'review', 4);
    poles.expect(1, 'curate', 1);
    assert.deepEqual(
      await grantOrder(poles, [
        [0, 'review'],
        [1, 'curate'],
      ]),
      [1, 0],
    );
  });
});

/** The order in which one slot, once free, serves calls queued behind a held one. */
async function grantOrder(schedule: Schedule, calls: Array<[number, FileStep]>): Promise<number[]> {
  const semaphore = new Semaphore(1);
  let free!: () => void;
  const gate = new Promise<void>((resolve) => (free = resolve));
  const held = semaphore.run(() => gate);
  const granted: number[] = [];
  const queued = calls.map(([order, step]) =>
    semaphore.run(async () => void granted.push(order), undefined, schedule.priority(order, step)),
  );
  free();
  await Promise.all([held, ...queued]);
  return granted;
}
