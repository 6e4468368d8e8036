/**
 * A staged run reviews a bounded number of files at once (engine/staged/pipeline.ts): the fake API's request
 * log shows how many files had asked something and not yet had their last answer at any moment.
 */
import assert from 'node:assert/strict';
import { buildJob } from '../../src/app/buildJob';
import { connectJob } from '../../src/app/jobConnection';
import { stagedRequest } from '../../src/app/jobRequest';
import { prepareJob } from '../../src/app/prepareJob';
import { runStagedReview } from '../../src/engine/staged/pipeline';
import type { LoggedRequest } from '../fake-anthropic/server';
import { fixtureWorkspace } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';

/** The most files open at once: from a file's first request sent to its last answered. */
function mostOpen(requests: LoggedRequest[]): number {
  const spans = new Map<string, { from: number; to: number }>();
  for (const r of requests) {
    if (r.file === null || r.ended_at === null) continue;
    const span = spans.get(r.file);
    spans.set(r.file, {
      from: Math.min(span?.from ?? Infinity, r.started_at),
      to: Math.max(span?.to ?? 0, r.ended_at),
    });
  }
  return Math.max(
    ...requests.map((r) => [...spans.values()].filter((s) => s.from <= r.started_at && r.started_at < s.to).length),
  );
}

describe('files in flight', function () {
  this.timeout(60_000);
  const fake = useFakeServer();

  async function review(filesInFlight: number): Promise<number> {
    fake.server.reset();
    const cwd = await fixtureWorkspace('shop');
    const job = buildJob({ cwd, scope: { kind: 'paths', paths: ['shop'] }, baseUrl: fake.server.url }, { apiKey: 'k' });
    const prepared = await prepareJob(job);
    const result = await runStagedReview(
      {
        ...stagedRequest(job, prepared, []),
        cwd,
        access: prepared.access,
        connection: await connectJob(job),
        maxConcurrency: 1,
        maxAttempts: 2,
        signal: new AbortController().signal,
        filesInFlight,
      },
      () => undefined,
    );
    assert.ok(result.files.filter((f) => f.status !== 'failed').length >= 3, 'the fixture has files to review');
    return mostOpen(fake.server.requests);
  }

  it('never has more files open than the bound, which a run without it exceeds', async () => {
    assert.ok((await review(1)) <= 1, 'more than one file open with a bound of one');
    assert.ok((await review(2)) <= 2, 'more than two files open with a bound of two');
    assert.ok((await review(100)) > 2, 'without a bound the run interleaves files (so the check above can fail)');
  });
});
