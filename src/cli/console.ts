/** Turns review events into terse stderr lines: step progress, retries and warnings. */
import type { ReviewEvent } from '../model/events';

export function consoleReporter(stream: NodeJS.WriteStream = process.stderr): (e: ReviewEvent) => void {
  const lastBucket = new Map<string, number>();
  return (e) => {
    switch (e.type) {
      case 'progress': {
        // One line per step per tenth of the way, so logs stay short on large runs.
        const bucket = e.total ? Math.floor((10 * e.done) / e.total) : 0;
        if (lastBucket.get(e.step) === bucket && e.done !== e.total) return;
        lastBucket.set(e.step, bucket);
        stream.write(`${e.message}\n`);
        return;
      }
      case 'retry':
        stream.write(`retry ${e.attempt} in ${(e.delayMs / 1000).toFixed(1)}s: ${e.label} (${e.reason})\n`);
        return;
      case 'warning':
        stream.write(`warning: ${e.message}\n`);
        return;
      default:
        return;
    }
  };
}
