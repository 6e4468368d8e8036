import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { MalformedBatch, batchView, erroredAs, readResults, type BatchResult } from '../../src/engine/batchWire';

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
