import assert from 'node:assert/strict';
import { buildJob } from '../../src/app/buildJob';
import { LIMITS } from '../../src/app/contributions';
import { DEFAULT_LENS_MODELS, DEFAULT_STEP_MODELS } from '../../src/model/models';

const base = { cwd: '/w', scope: { kind: 'paths' as const, paths: ['src'] }, apiKey: 'k' };

describe('building a review job', () => {
  it('fills every default in one place', () => {
    const job = buildJob(base);
    assert.equal(job.mode, undefined);
    assert.deepEqual(job.models, DEFAULT_STEP_MODELS);
    assert.equal(job.concurrency, LIMITS.concurrency.default);
    assert.equal(job.timeoutMs, LIMITS.requestTimeout.default * 1000);
    assert.equal(job.maxAttempts, LIMITS.maxAttempts.default);
    assert.equal(job.confirmOver, LIMITS.confirmThreshold.default);
    assert.deepEqual(
      [job.excludes, job.contextFiles, job.includeUntracked, job.force, job.effort],
      [[], [], true, false, undefined],
    );
  });

  it('clamps numbers into range and drops what a settings file may hold that makes no sense', () => {
    const job = buildJob({
      ...base,
      concurrency: 500,
      requestTimeout: 0,
      maxAttempts: 2.7,
      confirmOver: -1,
      effort: 'extreme',
      stepModels: { review: 'm-r', judge: 'x', analyze: '' },
    });
    assert.equal(job.concurrency, 64);
    assert.equal(job.timeoutMs, 1000);
    assert.equal(job.maxAttempts, 2);
    assert.equal(job.confirmOver, 0);
    assert.equal(job.effort, undefined);
    assert.deepEqual(job.models, { ...DEFAULT_STEP_MODELS, review: 'm-r' });
    assert.equal(buildJob({ ...base, concurrency: Number.NaN }).concurrency, LIMITS.concurrency.default);
  });

  it('resolves models per step and per role: one model for all, single overrides on top', () => {
    const staged = buildJob({ ...base, model: 'm-all', stepModels: { challenge: 'm-c' } });
    assert.deepEqual(staged.models, {
      curate: 'm-all',
      analyze: 'm-all',
      review: 'm-all',
      challenge: 'm-c',
      synthesize: 'm-all',
    });
    const lens = buildJob({
      ...base,
      mode: 'lenses',
      reviewerModels: { logic: 'm-l', judge: 'x' },
      lens: { maxReviewers: 99 },
    });
    assert.deepEqual(lens.lens, {
      fullFanout: false,
      maxReviewers: 8,
      models: { ...DEFAULT_LENS_MODELS, logic: 'm-l' },
      repositories: [],
    });
  });
});
