import assert from 'node:assert/strict';
import { buildJob } from '../../src/app/buildJob';
import { parseReviewArgs } from '../../src/cli/args';
import { UsageError } from '../../src/cli/help';
import { DEFAULT_LENS_EFFORT, DEFAULT_LENS_MODELS } from '../../src/model/models';
import { DEFAULT_REVIEWERS, MAX_REVIEWERS } from '../../src/model/reviewers';

/** The job the flags describe, as cli/job.ts builds it (without the process's folder and state). */
const jobOf = (argv: string[]) => {
  const { choices } = parseReviewArgs(argv);
  // Without paths the scope is detected where the review runs; these tests are about everything else.
  const scope = choices.scope.kind === 'auto' ? { kind: 'paths' as const, paths: ['.'] } : choices.scope;
  return buildJob({ ...choices, scope, cwd: '/w' }, { apiKey: 'k' });
};

describe('lens-mode arguments', () => {
  it('stays in staged mode unless asked', () => {
    assert.equal(parseReviewArgs(['src']).choices.mode, 'staged');
    assert.equal(jobOf(['src']).lens, undefined);
  });

  it('resolves lens options: fan-out, cap, spec, rubric and models per role', () => {
    const job = jobOf([
      'src',
      '--mode',
      'lenses',
      '--full-fanout',
      '--max-reviewers',
      '5',
      '--spec',
      'spec.md',
      '--rubric',
      'rubric.md',
      '--reviewer-model',
      'performance=m-fast',
      '--reviewer-model',
      'validator=m-tiny',
    ]);
    assert.deepEqual(job.scope, { kind: 'paths', paths: ['src'] });
    assert.deepEqual(job.lens, {
      fullFanout: true,
      maxReviewers: 5,
      spec: 'spec.md',
      rubric: 'rubric.md',
      models: { ...DEFAULT_LENS_MODELS, performance: 'm-fast', validator: 'm-tiny' },
      effort: DEFAULT_LENS_EFFORT,
      repositories: [],
    });
  });

  it('lets --model set every role, and --reviewer-model override one', () => {
    const models = jobOf(['--mode', 'lenses', '--model', 'm1', '--reviewer-model', 'logic=m2']).lens!.models;
    assert.ok(Object.entries(models).every(([role, id]) => id === (role === 'logic' ? 'm2' : 'm1')));
  });

  it('reads paths given with a change scope as repositories', () => {
    const job = jobOf(['--mode', 'lenses', '--base', 'main', 'api', 'web']);
    assert.deepEqual(job.scope, { kind: 'branch', base: 'main' });
    assert.deepEqual(job.lens!.repositories, ['api', 'web']);
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
  const choices = { cwd: '/w', scope: { kind: 'changes' as const } };
  const key = { apiKey: 'k' };

  it('gets every lens default from buildJob alone, and a job without a mode stays staged', () => {
    const lens = buildJob({ ...choices, mode: 'lenses' }, key);
    assert.deepEqual(lens.lens, {
      fullFanout: false,
      maxReviewers: DEFAULT_REVIEWERS.length,
      models: DEFAULT_LENS_MODELS,
      effort: DEFAULT_LENS_EFFORT,
      repositories: [],
    });
    assert.equal(buildJob({ ...choices, mode: 'lenses', fullFanout: true }, key).lens!.maxReviewers, MAX_REVIEWERS);
    assert.equal(buildJob({ ...choices, mode: 'lenses', effort: 'low' }, key).lens!.effort, 'low');
    assert.equal(buildJob(choices, key).mode, undefined);
  });

  it('drops unknown roles and keeps the reviewer cap in range', () => {
    assert.deepEqual(
      buildJob({ ...choices, mode: 'lenses', reviewerModels: { judge: 'x' } }, key).lens!.models,
      DEFAULT_LENS_MODELS,
    );
    assert.equal(buildJob({ ...choices, mode: 'lenses', maxReviewers: 9 }, key).lens!.maxReviewers, MAX_REVIEWERS);
  });
});
