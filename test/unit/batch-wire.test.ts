import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import {
  BATCH_LIMITS,
  MalformedBatch,
  batchBody,
  batchView,
  chunks,
  erroredAs,
  readResults,
  type BatchEntry,
  type BatchResult,
} from '../../src/engine/batchWire';

const entry = (i: number, text = 'x'): BatchEntry => ({ customId: `r${i}`, params: { text } });
/** The create body's size, as sent. */
const bytesOf = (requests: BatchEntry[]) => Buffer.byteLength(JSON.stringify(batchBody(requests)));

/** A results stream in these chunks; `cut`: the connection drops after them. */
async function* stream(parts: (string | Uint8Array)[], cut = false): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield typeof p === 'string' ? Buffer.from(p) : p;
  if (cut) throw new Error('terminated');
}
const line = (customId: string, result: unknown) => `${JSON.stringify({ custom_id: customId, result })}\n`;
const message = { type: 'succeeded', message: { content: [] } };

async function read(parts: (string | Uint8Array)[], cut = false) {
  const taken: [string, BatchResult][] = [];
  const tally = await readResults(stream(parts, cut), (id, r) => taken.push([id, r]));
  return { taken, tally };
}

describe('Message Batches wire formats (batchWire)', () => {
  describe('chunks', () => {
    it('keeps to the API limits: 100,000 requests, and safely under 256 MB of body', () => {
      assert.equal(BATCH_LIMITS.requests, 100_000);
      assert.ok(BATCH_LIMITS.bytes <= 256_000_000 - 1_000_000, 'a megabyte of margin under 256,000,000 bytes');
      const many = Array.from({ length: 100_001 }, (_, i) => entry(i));
      assert.deepEqual(
        chunks(many).map((c) => c.length),
        [100_000, 1],
      );
    });

    it('starts a new batch at the request limit', () => {
      const out = chunks(
        [1, 2, 3, 4, 5].map((i) => entry(i)),
        { requests: 2, bytes: 1e9 },
      );
      assert.deepEqual(
        out.map((c) => c.map((r) => r.customId)),
        [['r1', 'r2'], ['r3', 'r4'], ['r5']],
      );
    });

    it('measures the exact body sent: each batch fits, and the next request would not have', () => {
      // Multi-byte text: bytes, not characters, count.
      const requests = Array.from({ length: 9 }, (_, i) => entry(i, 'é€'.repeat(10 + 7 * i)));
      const limit = bytesOf(requests.slice(0, 3));
      const out = chunks(requests, { requests: 100, bytes: limit });
      assert.deepEqual(out[0], requests.slice(0, 3), 'the first batch is exactly at the limit');
      let next = 0;
      for (const c of out) {
        next += c.length;
        assert.ok(bytesOf(c) <= limit, `${bytesOf(c)} > ${limit}`);
        if (next < requests.length) assert.ok(bytesOf([...c, requests[next]!]) > limit);
      }
      assert.deepEqual(out.flat(), requests);
    });

    it('measures an entry by the bytes of its params measured beforehand, exactly as by the whole entry', () => {
      const requests = Array.from({ length: 9 }, (_, i) => entry(i, 'é€"\\'.repeat(10 + 7 * i)));
      const measured = requests.map((r) => ({ ...r, bytes: Buffer.byteLength(JSON.stringify(r.params)) }));
      for (const limit of [bytesOf(requests.slice(0, 2)), bytesOf(requests.slice(0, 3)) - 1, bytesOf(requests)]) {
        const limits = { requests: 100, bytes: limit };
        assert.deepEqual(
          chunks(measured, limits).map((c) => c.length),
          chunks(requests, limits).map((c) => c.length),
        );
      }
    });

    it('gives a request larger than the limit a batch of its own (the API then says why)', () => {
      const out = chunks([entry(1), entry(2, 'y'.repeat(500)), entry(3)], { requests: 100, bytes: 200 });
      assert.deepEqual(
        out.map((c) => c.map((r) => r.customId)),
        [['r1'], ['r2'], ['r3']],
      );
    });
  });

  describe('readResults', () => {
    it('skips blank lines and counts lines that are not JSON, reading every line after them', async () => {
      const { taken, tally } = await read([
        line('a', message),
        '\n',
        '<html>502 Bad Gateway</html>\n',
        '{"custom_id": "b", "res',
        `ult": ${JSON.stringify(message)}}\r\n`,
        '   \n',
        '{"no_custom_id": true}\n',
        line('c', { type: 'expired' }).trimEnd(),
      ]);
      assert.deepEqual(
        taken.map(([id, r]) => [id, r.type]),
        [
          ['a', 'succeeded'],
          ['b', 'succeeded'],
          ['c', 'expired'],
        ],
      );
      assert.deepEqual(tally.notJson, [3]);
      assert.deepEqual(tally.nameless, [6]);
      assert.equal(tally.lines, 7);
      assert.equal(tally.cut, undefined);
    });

    it('a custom_id twice is a duplicate: the first valid line counts, an invalid one only if none is valid', async () => {
      const { taken, tally } = await read([
        line('a', { type: 'succeeded' }),
        line('a', message),
        line('a', { type: 'expired' }),
        line('b', { type: 'nonsense' }),
      ]);
      assert.deepEqual(
        taken.map(([id, r]) => [id, r.type]),
        [['a', 'succeeded']],
      );
      assert.deepEqual([...tally.duplicates], ['a']);
      assert.deepEqual([...tally.invalid.keys()], ['b']);
    });

    it('a stream cut mid-way is cut: the half line is not read, the lines before it are', async () => {
      const { taken, tally } = await read([line('a', message), '{"custom_id": "b", "result": {"ty'], true);
      assert.deepEqual(
        taken.map(([id]) => id),
        ['a'],
      );
      assert.equal(tally.lines, 1);
      assert.match(String(tally.cut), /terminated/);
    });

    it('decodes a character split across chunks', async () => {
      const bytes = Buffer.from(line('a', { type: 'succeeded', message: { content: ['€'] } }));
      const at = bytes.indexOf(0xe2) + 1;
      const { taken } = await read([bytes.subarray(0, at), bytes.subarray(at)]);
      assert.deepEqual(taken[0]?.[1], { type: 'succeeded', message: { content: ['€'] } });
    });
  });

  describe('errored results', () => {
    const errorOf = async (error: unknown) => {
      const { taken } = await read([line('a', { type: 'errored', error })]);
      const result = taken[0]?.[1];
      assert.equal(result?.type, 'errored');
      return erroredAs((result as Extract<BatchResult, { type: 'errored' }>).error) as InstanceType<
        typeof Anthropic.APIError
      >;
    };

    it('reads the documented shape and the flat one alike, as the API error they name', async () => {
      const documented = await errorOf({
        type: 'error',
        error: { type: 'invalid_request_error', message: 'max_tokens: too large' },
        request_id: 'req_1',
      });
      const flat = await errorOf({ type: 'invalid_request_error', message: 'max_tokens: too large' });
      for (const err of [documented, flat]) {
        assert.ok(err instanceof Anthropic.BadRequestError);
        assert.equal(err.status, 400);
        assert.deepEqual((err.error as { error: unknown }).error, {
          type: 'invalid_request_error',
          message: 'max_tokens: too large',
        });
      }
      assert.equal((documented.error as { request_id: string }).request_id, 'req_1');
    });

    it('a flat error without a message is named by its type; an unknown type stands for 500', async () => {
      const overloaded = await errorOf({ type: 'overloaded_error' });
      assert.equal(overloaded.status, 529);
      assert.equal((overloaded.error as { error: { message: string } }).error.message, 'overloaded_error');
      assert.equal((await errorOf({ type: 'something_new', message: 'hm' })).status, 500);
    });
  });

  describe('batchView', () => {
    const counts = { processing: 0, succeeded: 1, errored: 0, canceled: 0, expired: 0 };
    it('takes a Message Batch, and refuses an answer without request_counts or an ended one without results', () => {
      const ok = { id: 'b', processing_status: 'ended', request_counts: counts, results_url: 'https://x/results' };
      assert.equal(batchView('b', ok).results_url, 'https://x/results');
      assert.throws(
        () => batchView('b', { ...ok, request_counts: undefined }),
        (err: unknown) =>
          err instanceof MalformedBatch && /batch b is not a Message Batch \(request_counts: /.test(err.message),
      );
      assert.throws(
        () => batchView('b', { ...ok, results_url: null }),
        /results_url: an ended batch without a results_url/,
      );
      assert.equal(batchView('b', { ...ok, processing_status: 'in_progress', results_url: null }).results_url, null);
    });
  });
});
