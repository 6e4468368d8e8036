import assert from 'node:assert/strict';
import type { ReviewEvent } from '../../src/model/events';
import { elapsed, RunProgress } from '../../src/model/progress';
import { emptyUsage } from '../../src/model/usage';

const progress = (step: string, done: number, total: number): ReviewEvent => ({
  type: 'progress',
  step: step as 'review',
  done,
  total,
  message: '',
});
const call = (calls: number, cost: number | null): ReviewEvent => ({
  type: 'call',
  label: 'x',
  step: 'review',
  model: 'm',
  usage: emptyUsage(),
  totals: { ...emptyUsage(), calls, cost_usd: cost },
  ms: 10,
});

describe('the run progress line', () => {
  it('shows the earliest step under way, never going back when later steps report first', () => {
    const p = new RunProgress('staged', 0);
    assert.equal(p.line(0), 'Step 0 · finding files · 0 calls · $0.00 · 0:00');
    p.update(progress('curate', 1, 2));
    p.update(progress('analyze', 1, 1));
    p.update(progress('review', 3, 3));
    p.update(call(5, 0.0421));
    assert.equal(p.line(72_000), 'Step 1/5 · curate · 1/2 files · 5 calls · $0.04 · 1:12');
    p.update(progress('curate', 2, 2));
    p.update(progress('analyze', 1, 2));
    assert.equal(p.current()!.step, 'analyze');
    p.update(progress('analyze', 2, 2));
    p.update(progress('review', 5, 14));
    assert.equal(p.line(72_000), 'Step 3/5 · review · 5/14 functions · 5 calls · $0.04 · 1:12');
  });

  it('skips steps with nothing to do, stays on the last one when all are done, and says when cost is unknown', () => {
    const p = new RunProgress('staged', 0);
    p.update(progress('curate', 1, 1));
    p.update(progress('analyze', 1, 1));
    p.update(progress('review', 1, 1));
    p.update(progress('synthesize', 1, 1));
    p.update(call(1, null));
    assert.equal(p.line(1000), 'Step 5/5 · synthesize · 1/1 · 1 call · $? · 0:01');
  });

  it("says the editor's plan instead of dollars once the editor bills the calls (vscode-lm)", () => {
    const p = new RunProgress('staged', 0);
    p.update(progress('review', 1, 4));
    p.update({
      ...call(3, null),
      totals: { ...emptyUsage(), calls: 3, cost_usd: null, billing: 'editor' },
    } as ReviewEvent);
    assert.equal(p.line(1000), "Step 3/5 · review · 1/4 functions · 3 calls · editor's plan · 0:01");
  });

  it('names lens phases without a step count', () => {
    const p = new RunProgress('lenses', 0);
    p.update(progress('reviewers', 2, 3));
    assert.equal(p.line(0), 'reviewers · 2/3 reviewers · 0 calls · $0.00 · 0:00');
  });

  it('formats elapsed time in minutes, and hours past the hour', () => {
    assert.equal(elapsed(59_999), '0:59');
    assert.equal(elapsed(3_723_000), '1:02:03');
  });
});
