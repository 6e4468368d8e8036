/**
 * Function inventories found on worker threads (dist/parser.js, parseWorker.ts). Parsing a file and walking
 * its syntax tree is CPU work — on a tree of thousands of files, most of a cold plan — so it runs beside the
 * thread that reads and judges the files (THREADS of them). Workers start with the first files sent and
 * never hold the process open: each is unreferenced whenever it has nothing to do. Without the worker script
 * (a bundle that does not ship it, the tests' own bundles), or once a worker has failed, files are parsed
 * here instead, with the same finder.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { FunctionInventory } from '../../model/functions';
import { functionInventory } from './finder';
import { grammarFor } from './grammars';
import { extensionOf } from '../../model/languages';

/** Beside the bundle that runs this code (esbuild.mjs builds it into dist/). */
const SCRIPT = join(__dirname, 'parser.js');
const YOUNG_GENERATION_MB = 4;
/**
 * A core is left to the thread that reads and judges the files, and at most two parse: each holds its grammars
 * and their trees' memory (85–110 MB on the 9,400-file bench tree), so two on a two-core machine took a cold
 * plan from ~270 MB to 315–370 MB at its peak (docs/caching.md).
 */
const THREADS = Math.min(2, Math.max(1, availableParallelism() - 1));

/** What a worker answers, checked like any record that crosses a boundary. */
const Reply = z.union([
  z.object({
    id: z.number(),
    inventory: z
      .object({
        parser: z.enum(['syntax', 'regex']),
        functions: z.array(
          z.object({
            qualified_name: z.string(),
            kind: z.string(),
            visibility: z.enum(['public', 'internal', 'private']),
            start_line: z.number().int().positive(),
            end_line: z.number().int().positive(),
            signature_line: z.number().int().positive().optional(),
          }),
        ),
      })
      .nullable(),
  }),
  z.object({ id: z.number(), error: z.string() }),
]);

interface Job {
  path: string;
  text: string;
  resolve: (inventory: FunctionInventory | null) => void;
  reject: (err: Error) => void;
}

class ParseWorker {
  readonly jobs = new Map<number, Job>();
  private readonly worker: Worker;

  constructor(script: string, onFailure: () => void) {
    // A small young generation: each file's nodes are garbage the moment its inventory is out, and the default
    // semi-spaces cost each worker some 30 MB more on a large tree (measured in docs/caching.md).
    this.worker = new Worker(script, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    this.worker.unref();
    this.worker.on('message', (message: unknown) => {
      const reply = Reply.safeParse(message);
      const job = reply.success ? this.jobs.get(reply.data.id) : undefined;
      if (!reply.success || !job) return onFailure();
      this.jobs.delete(reply.data.id);
      if (!this.jobs.size) this.worker.unref();
      if ('error' in reply.data) job.reject(new Error(reply.data.error));
      else job.resolve(reply.data.inventory);
    });
    this.worker.on('error', onFailure);
    this.worker.on('exit', onFailure);
  }

  send(id: number, job: Job): void {
    // Referenced while it has work, so that the process waits for the answers; idle, it never holds it open.
    if (!this.jobs.size) this.worker.ref();
    this.jobs.set(id, job);
    this.worker.postMessage({ id, path: job.path, text: job.text });
  }

  /** Stops the worker and hands back the jobs it had not answered. */
  stop(): Job[] {
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    this.worker.unref();
    void this.worker.terminate();
    return jobs;
  }
}

/** One pool per process: its workers outlive a scope (a job's worker thread ends with the job, and them with it). */
let shared: ParsePool | undefined;
export function parsePool(): ParsePool {
  return (shared ??= new ParsePool());
}

export class ParsePool {
  private readonly workers: ParseWorker[] = [];
  private nextId = 0;
  private broken: boolean;

  /** `script`: the worker's own (tests start the built one). */
  constructor(
    private readonly size = THREADS,
    private readonly script = SCRIPT,
  ) {
    this.broken = !existsSync(script);
  }

  /** Worker threads started so far. */
  get threads(): number {
    return this.workers.length;
  }

  /**
   * The file's inventory, as `functionInventory` finds it. A file no grammar reads is found here (the regex
   * fallback is quick): a scope without code starts no thread.
   */
  parse(path: string, text: string): Promise<FunctionInventory | null> {
    const worker = this.broken || !grammarFor(extensionOf(path)) ? undefined : this.pick();
    if (!worker) return functionInventory(path, text);
    return new Promise((resolve, reject) => worker.send(this.nextId++, { path, text, resolve, reject }));
  }

  /** The least busy worker, or a new one while every worker has work and there are fewer than `size`. */
  private pick(): ParseWorker | undefined {
    let least: ParseWorker | undefined;
    for (const w of this.workers) if (!least || w.jobs.size < least.jobs.size) least = w;
    if (least && (least.jobs.size === 0 || this.workers.length >= this.size)) return least;
    try {
      const worker: ParseWorker = new ParseWorker(this.script, () => this.fail());
      this.workers.push(worker);
      return worker;
    } catch {
      this.broken = true;
      return undefined;
    }
  }

  /** A worker that fails (it crashed, or answered nonsense) ends the pool: what was out is parsed here, and so is the rest. */
  private fail(): void {
    if (this.broken) return;
    this.broken = true;
    for (const job of this.workers.splice(0).flatMap((w) => w.stop()))
      functionInventory(job.path, job.text).then(job.resolve, job.reject);
  }
}
