/**
 * One progress line for a whole run, the same in the CLI, the notification and the status bar:
 * "Step 3/5 · review · 14/40 functions · 37 calls · $0.42 · 1:12" ("editor's plan" in place of the dollars
 * when the editor bills the calls). Staged files run through their steps
 * concurrently, so the line shows the earliest step still under way: it only moves forward, and each step's
 * total is complete by the time the line reaches it. A run through the Message Batches API adds its batch
 * state: "… · batch round 2: msgbatch_… in_progress (0/45 requests done)".
 */
import type { ReviewEvent } from './events';
import { formatCost, type Billing } from './pricing';

const STAGED: Array<{ step: string; unit: string }> = [
  { step: 'curate', unit: 'files' },
  { step: 'analyze', unit: 'files' },
  { step: 'review', unit: 'functions' },
  { step: 'challenge', unit: 'files' },
  { step: 'synthesize', unit: '' },
];
const LENSES: Array<{ step: string; unit: string }> = [
  { step: 'reviewers', unit: 'reviewers' },
  { step: 'validators', unit: 'findings' },
  { step: 'cross-repo', unit: '' },
];

export class RunProgress {
  private readonly counts = new Map<string, { done: number; total: number }>();
  private calls = 0;
  private cost: number | null = 0;
  private billing: Billing | undefined;
  private batch: { rounds: number; running: number; message: string } | undefined;
  private readonly steps: Array<{ step: string; unit: string }>;

  constructor(
    mode: 'staged' | 'lenses',
    private readonly startedAt: number = Date.now(),
  ) {
    this.steps = mode === 'lenses' ? LENSES : STAGED;
  }

  /** Takes in an event; true when it changed a figure the line shows. */
  update(e: ReviewEvent): boolean {
    if (e.type === 'progress') {
      this.counts.set(e.step, { done: e.done, total: e.total });
      return true;
    }
    if (e.type === 'batch') {
      this.batch = { rounds: e.rounds, running: e.running, message: e.message };
      return true;
    }
    if (e.type === 'call') {
      this.calls = e.totals.calls;
      this.cost = e.totals.cost_usd;
      this.billing = e.totals.billing;
      return true;
    }
    return false;
  }

  /** The step the line is about, with its 1-based number, or null before any step has started. */
  current(): { index: number; step: string; unit: string; done: number; total: number } | null {
    let last: ReturnType<RunProgress['current']> = null;
    for (const [i, s] of this.steps.entries()) {
      const c = this.counts.get(s.step);
      if (!c || c.total === 0) continue;
      last = { index: i + 1, ...s, ...c };
      if (c.done < c.total) return last;
    }
    return last;
  }

  line(now: number = Date.now()): string {
    const c = this.current();
    const parts: string[] = [];
    if (!c) parts.push('Step 0 · finding files');
    else {
      const step = this.steps === STAGED ? `Step ${c.index}/${this.steps.length} · ${c.step}` : c.step;
      parts.push(step, `${c.done}/${c.total}${c.unit ? ` ${c.unit}` : ''}`);
    }
    parts.push(
      `${this.calls} ${this.calls === 1 ? 'call' : 'calls'}`,
      formatCost(this.cost, this.billing),
      elapsed(now - this.startedAt),
    );
    if (this.batch?.running) parts.push(`batch round ${this.batch.rounds}: ${this.batch.message}`);
    return parts.join(' · ');
  }
}

/** "1:12", "1:02:03". */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}
