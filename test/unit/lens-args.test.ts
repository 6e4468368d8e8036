import assert from 'node:assert/strict';
import { ReviewJob } from '../../src/app/job';
import { parseReviewArgs } from '../../src/cli/args';
import { UsageError } from '../../src/cli/usage';
import { DEFAULT_LENS_MODELS } from '../../src/model/models';

describe('lens-mode arguments', () => {
  it('stays in staged mode unless asked', () => {
    const args = parseReviewArgs(['src']);
    assert.equal(args.mode, 'staged');
    assert.equal(args.lens, undefined);
  });

  it('resolves lens options: fan-out, cap, spec, rubric and models per role', () => {
    const args = parseReviewArgs(['src', '--mode', 'lenses', '--full-fanout', '--max-reviewers', '5', '--spec', 'spec.md', '--rubric', 'rubric.md', '--reviewer-model', 'performance=m-fast', '--reviewer-model', 'validator=m-tiny']);
    assert.deepEqual(args.scope, { kind: 'paths', paths: ['src'] });
    assert.deepEqual(args.lens, {
      fullFanout: true,
      maxReviewers: 5,
      spec: 'spec.md',
      rubric: 'rubric.md',
      models: { ...DEFAULT_LENS_MODELS, performance: 'm-fast', validator: 'm-tiny' },
      repositories: [],
    });
  });

  it('lets --model set every role, and --reviewer-model override one', () => {
    const models = parseReviewArgs(['--mode', 'lenses', '--model', 'm1', '--reviewer-model', 'logic=m2']).lens!.models;
    assert.ok(Object.entries(models).every(([role, id]) => id === (role === 'logic' ? 'm2' : 'm1')));
  });

  it('reads paths given with a change scope as repositories', () => {
    const args = parseReviewArgs(['--mode', 'lenses', '--base', 'main', 'api', 'web']);
    assert.deepEqual(args.scope, { kind: 'branch', base: 'main' });
    assert.deepEqual(args.lens!.repositories, ['api', 'web']);
  });

  it('refuses what does not fit', () => {
    const bad = [
      ['--full-fanout'],
      ['--mode', 'lenses', '--step-model', 'review=x'],
      ['--mode', 'lenses', '--pr', '3', 'api'],
      ['--mode', 'lenses', '--max-reviewers', '0'],
      ['--mode', 'lenses', '--reviewer-model', 'security'],
      ['--mode', 'quick'],
    ];
    for (const argv of bad) assert.throws(() => parseReviewArgs(argv), UsageError, argv.join(' '));
  });
});

describe('a lens job', () => {
  const job = { cwd: '/w', scope: { kind: 'changes' }, models: { curate: 'm', analyze: 'm', review: 'm', challenge: 'm', synthesize: 'm' }, concurrency: 8, timeoutMs: 60_000, maxAttempts: 6, apiKey: 'k' };

  it('parses with lens defaults, and a job without a mode stays staged', () => {
    const lens = ReviewJob.parse({ ...job, mode: 'lenses', lens: {} });
    assert.deepEqual(lens.lens, { fullFanout: false, models: {}, repositories: [] });
    assert.equal(ReviewJob.parse(job).mode, undefined);
  });

  it('rejects unknown roles and caps out of range', () => {
    assert.ok(!ReviewJob.safeParse({ ...job, mode: 'lenses', lens: { models: { judge: 'x' } } }).success);
    assert.ok(!ReviewJob.safeParse({ ...job, mode: 'lenses', lens: { maxReviewers: 9 } }).success);
  });
});
