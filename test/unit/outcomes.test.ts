/**
 * Typed outcomes (model/outcome.ts, model/setup.ts): every decision about how a run ended is taken on the
 * stop's kind and status, the failure's code or the error's class — so rewording a message changes nothing
 * a reader does. Each case pairs a message that would have fooled a reader of the words with the decision
 * its code gives.
 */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import * as z from 'zod/mini';
import { Connection, RemoteError, requestType } from '../../src/app/connection';
import { reportable, OverBudget } from '../../src/app/runJob';
import { readCiContext } from '../../src/app/ci/environment';
import { BatchRetry } from '../../src/engine/batch';
import { LedgerRefused } from '../../src/engine/batchLedger';
import { GitError } from '../../src/io/git';
import { UnsafeWrite } from '../../src/io/safeWrite';
import { AccessDenied } from '../../src/model/access';
import type { FileOutcome } from '../../src/model/events';
import { Stop, type StopKind } from '../../src/model/outcome';
import { ProviderError } from '../../src/model/providers';
import { isSetupError, SetupError } from '../../src/model/setup';
import { ScopeError } from '../../src/scope/inventory';
import { stopAction } from '../../src/ui/stopAction';

const stop = (kind: StopKind, message: string, status: number | null = null): Stop => ({ kind, status, message });
const KEY = { needsKey: true };
const NO_KEY = { needsKey: false };
const failedFile: FileOutcome = { path: 'a.ts', companion_path: null, status: 'failed', functions_reviewed: 0 };

describe('typed outcomes', () => {
  describe("the editor's action after a stopped run", () => {
    it('offers another key for a refused key, whatever the words', () => {
      assert.equal(stopAction(stop('refused', 'the key was not accepted', 401), KEY), 'setKey');
      assert.equal(stopAction(stop('refused', 'forbidden', 403), KEY), 'setKey');
      // A provider without an Anthropic key (Bedrock, Vertex AI) is fixed by the check instead.
      assert.equal(stopAction(stop('refused', 'forbidden', 403), NO_KEY), 'checkSetup');
    });

    it('offers the setup check for any other refusal or setup stop, whatever the words', () => {
      assert.equal(stopAction(stop('refused', 'no such model', 404), KEY), 'checkSetup');
      assert.equal(stopAction(stop('setup', 'this platform has no Message Batches'), KEY), 'checkSetup');
    });

    it('says a limit or a failure as it is, even when its words look like a refusal', () => {
      const lookalike = 'the API refused the run: HTTP 401 (quoted from a model call)';
      assert.equal(stopAction(stop('maxCalls', lookalike), KEY), 'error');
      assert.equal(stopAction(stop('deadline', lookalike), KEY), 'error');
      assert.equal(stopAction(stop('fatal', lookalike), KEY), 'error');
    });

    it('does nothing more after a cancel, or a run that did not stop', () => {
      assert.equal(stopAction(stop('cancelled', 'the API refused the run: HTTP 401'), KEY), 'none');
      assert.equal(stopAction(undefined, KEY), 'none');
    });
  });

  describe('whether a run that finished nothing has a report', () => {
    it('a limit of its own reports, whatever its words', () => {
      for (const kind of ['maxCalls', 'maxCost', 'deadline'] as const)
        assert.equal(reportable({ stop: stop(kind, 'the run is over'), files: [failedFile] }), true, kind);
    });

    it('a refusal or a cancel does not, even when its words name a ceiling', () => {
      const words = 'the run reached its ceiling of 3 model calls (--max-calls) and its --timeout';
      assert.equal(reportable({ stop: stop('refused', words, 401), files: [failedFile] }), false);
      assert.equal(reportable({ stop: stop('cancelled', words), files: [failedFile] }), false);
    });

    it('a run that finished a file, or did not stop, always does', () => {
      assert.equal(
        reportable({ stop: stop('refused', 'x', 401), files: [{ ...failedFile, status: 'reviewed' }] }),
        true,
      );
      assert.equal(reportable({ files: [failedFile] }), true);
    });
  });

  it('a stop crossing to the host is checked: an unknown kind or a missing status is refused', () => {
    assert.equal(Stop.safeParse({ kind: 'refused', status: 401, message: 'x' }).success, true);
    assert.equal(Stop.safeParse({ kind: 'refusedd', status: 401, message: 'x' }).success, false);
    assert.equal(Stop.safeParse({ kind: 'maxCalls', message: 'x' }).success, false);
  });

  describe('the SetupError family', () => {
    it('holds every "fix your setup" problem, whatever room found it', () => {
      for (const err of [
        new ScopeError('a'),
        new GitError('b'),
        new UnsafeWrite('c'),
        new ProviderError('d'),
        new OverBudget('e'),
        new LedgerRefused('f'),
      ])
        assert.ok(isSetupError(err), err.constructor.name);
      assert.equal(isSetupError(new Error('a crash')), false);
    });

    it('a missing GITHUB_TOKEN is a setup problem, not a scope problem', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'skeptic-outcome-'));
      const event = join(dir, 'event.json');
      const side = { sha: 'a'.repeat(40), ref: 'main', repo: { full_name: 'o/r' } };
      await writeFile(event, JSON.stringify({ pull_request: { number: 1, title: 't', base: side, head: side } }));
      await assert.rejects(
        readCiContext({ GITHUB_EVENT_PATH: event, GITHUB_REPOSITORY: 'o/r' }),
        (err: unknown) => err instanceof SetupError && !(err instanceof ScopeError) && /GITHUB_TOKEN/.test(err.message),
      );
    });
  });

  it("a batch request's retry keeps what happened apart from its message", () => {
    const retry = new BatchRetry('batch msgbatch_1 ended without a result for this request', { subject: 'it' });
    assert.equal(
      retry.message,
      'batch msgbatch_1 ended without a result for this request; it goes again in the next round',
    );
    assert.equal(retry.why, 'batch msgbatch_1 ended without a result for this request');
    assert.equal(retry.free, false);
    assert.equal(new BatchRetry('expired', { free: true }).free, true);
  });

  it('a missing file is said by a flag on the refusal, not by its words', () => {
    assert.equal(new AccessDenied('"x" does not exist').missing, false);
    assert.equal(new AccessDenied('"x" is gone', { missing: true }).missing, true);
  });

  describe('errors across the worker connection', () => {
    function pair(): { a: Connection; b: Connection; close: () => void } {
      const { port1, port2 } = new MessageChannel();
      const a = new Connection(
        (m) => port1.postMessage(m),
        () => undefined,
      );
      const b = new Connection(
        (m) => port2.postMessage(m),
        () => undefined,
      );
      port1.on('message', (m: unknown) => a.receive(m));
      port2.on('message', (m: unknown) => b.receive(m));
      return { a, b, close: () => (port1.close(), port2.close()) };
    }
    const Ask = requestType('ask', z.object({ n: z.int() }), z.int());
    const rejectsWith = (p: Promise<unknown>, code: string) =>
      assert.rejects(p, (err: unknown) => err instanceof RemoteError && err.code === code);

    it('carry a code saying which way the request failed', async () => {
      const { a, b, close } = pair();
      try {
        await rejectsWith(a.sendRequest(Ask, { n: 1 }), 'unknownRequest');
        b.onRequest(Ask, ({ n }) => {
          if (n < 0) throw new Error('negative');
          return n === 0 ? ('zero' as unknown as number) : n * 2;
        });
        assert.equal(await a.sendRequest(Ask, { n: 2 }), 4);
        await rejectsWith(a.sendRequest(Ask, { n: 1.5 }), 'invalidParams');
        await rejectsWith(a.sendRequest(Ask, { n: -1 }), 'handlerFailed');
        await rejectsWith(a.sendRequest(Ask, { n: 0 }), 'malformedAnswer');
      } finally {
        close();
      }
    });
  });
});
