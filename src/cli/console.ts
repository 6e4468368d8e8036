/** Turns review events into terse stderr lines: the run's progress in step order, retries and warnings. */
import type { ReviewEvent } from '../model/events';
import { RunProgress } from '../model/progress';

export function consoleReporter(
  stream: NodeJS.WriteStream = process.stderr,
  mode: 'staged' | 'lenses' = 'staged',
  now: () => number = Date.now,
): (e: ReviewEvent) => void {
  const progress = new RunProgress(mode, now());
  let last = '';
  return (e) => {
    switch (e.type) {
      case 'progress': {
        progress.update(e);
        // One line when the step changes and one per tenth of its way, so logs stay short on large runs.
        const c = progress.current();
        const key = c ? `${c.index} ${c.total ? Math.floor((10 * c.done) / c.total) : 0}` : '';
        if (key === last) return;
        last = key;
        stream.write(`${progress.line(now())}\n`);
        return;
      }
      case 'call':
        progress.update(e);
        return;
      case 'batch':
        // A batch run waits long between steps: its news is the line's news (and, once a batch ends, the news itself).
        progress.update(e);
        stream.write(e.running ? `${progress.line(now())}\n` : `batch round ${e.rounds}: ${e.message}\n`);
        return;
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
