/**
 * `--events FILE`: every engine event as one JSON line with a timestamp, for CI dashboards and measurement.
 * A call line carries its step, file, unit, model, tokens, cache reads and writes, cost, and the run's totals
 * so far; the final line carries the run's usage instead of the whole result (that is what --json is for).
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { EmitFn, ReviewEvent } from '../model/events';

export interface EventLog {
  path: string;
  emit: EmitFn;
  close(): Promise<void>;
}

export async function openEventLog(cwd: string, file: string): Promise<EventLog> {
  const path = resolve(cwd, file);
  await mkdir(dirname(path), { recursive: true });
  const out = createWriteStream(path);
  return {
    path,
    emit: (e) => out.write(`${JSON.stringify({ ts: new Date().toISOString(), ...line(e) })}\n`),
    close: () => new Promise<void>((done) => out.end(done)),
  };
}

function line(e: ReviewEvent): object {
  if (e.type !== 'done') return e;
  const r = e.result;
  return { type: 'done', mode: r.mode, usage: r.usage, usage_by_step: r.usageByStep, findings: r.findings.length, failed: r.failed.length, cache_hits: r.cacheHits, ...(r.stopped ? { stopped: r.stopped } : {}) };
}
