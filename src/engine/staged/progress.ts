/** Per-step progress counters, emitted as "Step 3 · 14/31 functions". */
import type { EmitFn, ProgressStep } from '../../model/events';

const STEP_TITLES: Record<ProgressStep, [string, string]> = {
  curate: ['Step 1', 'files'],
  analyze: ['Step 2', 'files'],
  review: ['Step 3', 'functions'],
  challenge: ['Step 4', 'files'],
  synthesize: ['Step 5', 'synthesis'],
};

/** Per-step counters; totals grow as earlier steps discover work. */
export class Progress {
  private readonly counts = new Map<ProgressStep, { done: number; total: number }>();
  constructor(private readonly emit: EmitFn) {}

  total(step: ProgressStep, more: number): void {
    this.get(step).total += more;
  }

  advance(step: ProgressStep, by = 1): void {
    if (by === 0) return;
    const c = this.get(step);
    c.done += by;
    const [title, unit] = STEP_TITLES[step];
    this.emit({
      type: 'progress',
      step,
      done: c.done,
      total: c.total,
      message: `${title} · ${c.done}/${c.total} ${unit}`,
    });
  }

  private get(step: ProgressStep) {
    let c = this.counts.get(step);
    if (!c) this.counts.set(step, (c = { done: 0, total: 0 }));
    return c;
  }
}
