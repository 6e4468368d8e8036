/**
 * `--events FILE`: every engine event as one JSON line with a timestamp, for CI dashboards and measurement.
 * A call line carries its step, file, unit, model, tokens, cache reads and writes, cost, and the run's totals
 * so far; the final line carries the run's usage instead of the whole result (that is what --json is for).
 */
import { constants, createWriteStream, mkdirSync, openSync, type WriteStream } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { EmitFn, ReviewEvent } from '../model/events';
import { UsageError } from './help';
import { terminalSafe } from '../model/terminalText';

export interface EventLog {
  path: string;
  emit: EmitFn;
  /** Whether any event was written (the file exists only then). */
  readonly written: boolean;
  close(): Promise<void>;
}

/**
 * The file is created with the first event, not before: the run checks that it is not a file under review
 * before it emits anything, so a refused name is never touched.
 */
const NO_FOLLOW_TRUNCATE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0);

export function openEventLog(cwd: string, file: string): EventLog {
  const path = resolve(cwd, file);
  let out: WriteStream | undefined;
  let failed: Error | undefined;
  return {
    path,
    get written() {
      return out !== undefined;
    },
    emit: (e) => {
      if (failed) return;
      if (!out) {
        try {
          mkdirSync(dirname(path), { recursive: true });
          // Never through a link (runJob refused one before the first event; this holds if one appears since).
          out = createWriteStream(path, { fd: openSync(path, NO_FOLLOW_TRUNCATE, 0o644) });
        } catch (err) {
          failed = err as Error;
          return;
        }
        out.on('error', (err) => (failed = err));
      }
      out.write(`${JSON.stringify({ ts: new Date().toISOString(), ...line(e) }, terminalSafe)}\n`);
    },
    close: () =>
      new Promise<void>((done, fail) => {
        // A file that cannot be written (a full disk, /dev/full) is the operator's to fix: said in one line.
        const refuse = (err: Error) => fail(new UsageError(`--events ${file}: ${err.message}`));
        if (failed || !out) return failed ? refuse(failed) : done();
        out.once('error', refuse);
        out.end(done);
      }),
  };
}

function line(e: ReviewEvent): object {
  if (e.type !== 'done') return e;
  const r = e.result;
  return {
    type: 'done',
    mode: r.mode,
    usage: r.usage,
    usage_by_step: r.usageByStep,
    findings: r.findings.length,
    failed: r.failed.length,
    cache_hits: r.cacheHits,
    ...(r.stop ? { stopped: r.stop.message, stop_kind: r.stop.kind } : {}),
  };
}
