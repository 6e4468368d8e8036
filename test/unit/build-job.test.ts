import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildJob } from '../../src/app/buildJob';
import { LIMITS } from '../../src/app/contributions';
import { DEFAULT_LENS_EFFORT, DEFAULT_LENS_MODELS, DEFAULT_STEP_MODELS } from '../../src/model/models';

const base = { cwd: '/w', scope: { kind: 'paths' as const, paths: ['src'] } };
const key = { apiKey: 'k' };

describe('building a review job', () => {
  it('fills every default in one place', () => {
    const job = buildJob(base, key);
    assert.equal(job.mode, undefined);
    assert.deepEqual(job.models, DEFAULT_STEP_MODELS);
    assert.equal(job.maxConcurrency, LIMITS.maxConcurrency.default);
    assert.equal(job.requestTimeout, LIMITS.requestTimeout.default);
    assert.equal(job.maxAttempts, LIMITS.maxAttempts.default);
    assert.equal(job.confirmThreshold, LIMITS.confirmThreshold.default);
    assert.deepEqual(
      [job.excludes, job.contextFiles, job.includeUntracked, job.force, job.effort],
      [[], [], true, false, undefined],
    );
  });

  it('clamps numbers into range and drops what a settings file may hold that makes no sense', () => {
    const job = buildJob(
      {
        ...base,
        maxConcurrency: 500,
        requestTimeout: 0,
        maxAttempts: 2.7,
        confirmThreshold: -1,
        effort: 'extreme',
        modelPerStep: { review: 'm-r', judge: 'x', analyze: '' },
      },
      key,
    );
    assert.equal(job.maxConcurrency, 64);
    assert.equal(job.requestTimeout, 1);
    assert.equal(job.maxAttempts, 2);
    assert.equal(job.confirmThreshold, 0);
    assert.equal(job.effort, undefined);
    assert.deepEqual(job.models, { ...DEFAULT_STEP_MODELS, review: 'm-r' });
    assert.equal(buildJob({ ...base, maxConcurrency: Number.NaN }, key).maxConcurrency, LIMITS.maxConcurrency.default);
  });

  it('resolves models per step and per role: one model for all, single overrides on top', () => {
    const staged = buildJob({ ...base, model: 'm-all', modelPerStep: { challenge: 'm-c' } }, key);
    assert.deepEqual(staged.models, {
      curate: 'm-all',
      analyze: 'm-all',
      review: 'm-all',
      challenge: 'm-c',
      synthesize: 'm-all',
    });
    const lens = buildJob(
      { ...base, mode: 'lenses', reviewerModels: { logic: 'm-l', judge: 'x' }, maxReviewers: 99 },
      key,
    );
    assert.deepEqual(lens.lens, {
      fullFanout: false,
      maxReviewers: 8,
      models: { ...DEFAULT_LENS_MODELS, logic: 'm-l' },
      effort: DEFAULT_LENS_EFFORT,
      repositories: [],
    });
  });

  it("chooses the result cache in one place: off, a folder named, else the repository's own", () => {
    const stateDir = '/state/repo-1';
    assert.equal(buildJob(base, { ...key, stateDir }).cacheDir, join(stateDir, 'results'));
    assert.equal(buildJob({ ...base, cacheDir: 'c' }, { ...key, stateDir }).cacheDir, join('/w', 'c'));
    assert.equal(buildJob({ ...base, cacheResults: false, cacheDir: 'c' }, { ...key, stateDir }).cacheDir, undefined);
    assert.equal(buildJob(base, key).cacheDir, undefined, 'no state folder, no folder named: no cache');
  });

  it("puts the extension's reports in Skeptic's own folder, and the CLI's beside the work", () => {
    assert.equal(buildJob({ ...base, reportFolder: '' }, key).outputs.reportFolder, join('/w', '.skeptic/reports'));
    assert.equal(buildJob({ ...base, reportFolder: 'out' }, key).outputs.reportFolder, join('/w', 'out'));
    assert.deepEqual(buildJob(base, key).outputs, {});
  });
});
