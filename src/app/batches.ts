/**
 * `skeptic batches`: the Message Batches this repository's ledger keeps (engine/batchLedger.ts: those no run
 * has collected), each with its state as the API tells it now. With `cancel`, each batch still in progress is
 * canceled: what has not run is not paid for, what has is and stays collectable by a rerun of its review; a
 * batch with nothing left to collect (ended without an answer, its results gone, or unknown to the API) is
 * dropped from the ledger. Listing alone changes nothing.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { BatchLedger } from '../engine/batchLedger';
import { describeError } from '../engine/client';
import type { Connection } from '../engine/connect';
import { mapLimit } from '../model/pool';
import { plural } from '../model/plural';
import { PROVIDER_NAMES, ProviderError } from '../model/providers';
import { batchLedgerFile } from './state';

type MessageBatch = Anthropic.Messages.MessageBatch;
type Sdk = NonNullable<Connection['batches']>;

export interface BatchesOptions {
  stateDir: string;
  cancel: boolean;
  signal: AbortSignal;
  /** The provider's client, made only when the ledger holds a batch (listing an empty one needs no key). */
  connect: () => Promise<Connection>;
}

/** Batches retrieved (and collected) at once by `skeptic batches`. */
const BATCH_LOOKUPS = 8;

/** The lines to print, and whether the API answered for every batch. */
export async function batchesReport(o: BatchesOptions): Promise<{ lines: string[]; ok: boolean }> {
  const ledger = new BatchLedger(batchLedgerFile(o.stateDir));
  const entries = await ledger.load();
  if (!entries.length)
    return { lines: ['No Message Batches kept for this repository: none left to collect.'], ok: true };
  const connection = await o.connect();
  const sdk = connection.batches;
  if (!sdk)
    throw new ProviderError(
      `skeptic batches needs the Message Batches API, which ${PROVIDER_NAMES[connection.provider.provider]} does not have; the ledger's batches are on the Anthropic API (--provider anthropic)`,
    );
  // A ledger of thousands of batches is asked a few at a time, not all at once (the API's rate limits).
  const seen = await mapLimit(entries, BATCH_LOOKUPS, (e) => oneBatch(e.id, { connection, sdk, ledger, ...o }));
  const lines = entries.flatMap((e, i) => {
    const { state, did } = seen[i]!;
    const uncollected = plural(Object.keys(e.requests).length, 'request');
    const head = `${e.id}  ${state} · ${uncollected} not collected · created ${e.created_at} · ${e.review ?? 'review not recorded'}`;
    return did ? [head, `  ${did}`] : [head];
  });
  return {
    lines: [`${plural(entries.length, 'Message Batch', 'Message Batches')} kept for this repository:`, ...lines],
    ok: seen.every((s) => s.ok),
  };
}

interface Seen {
  /** The batch's state, in the API's words, or why it is not known. */
  state: string;
  /** What `cancel` did about it. */
  did?: string;
  ok: boolean;
}

async function oneBatch(
  id: string,
  o: BatchesOptions & { connection: Connection; sdk: Sdk; ledger: BatchLedger },
): Promise<Seen> {
  const failure = (err: unknown) => describeError(err, o.connection);
  const dropped = async () => (await o.ledger.drop(id), 'nothing left to collect: dropped from the ledger');
  let batch: MessageBatch;
  try {
    batch = await o.sdk.messages.batches.retrieve(id, {}, { signal: o.signal });
  } catch (err) {
    if (!(err instanceof o.connection.errors.NotFoundError)) return { state: failure(err), ok: false };
    const state = 'not found (deleted, or kept by another workspace)';
    return { state, ...(o.cancel ? { did: await dropped() } : {}), ok: true };
  }
  if (!o.cancel) return { state: stateOf(batch), ok: true };
  if (batch.processing_status === 'in_progress') {
    try {
      batch = await o.sdk.messages.batches.cancel(id, {}, { signal: o.signal });
    } catch (err) {
      return { state: stateOf(batch), did: `not canceled: ${failure(err)}`, ok: false };
    }
    const did = 'cancel requested: what has not run is canceled, not paid for; what has run stays collectable';
    return { state: stateOf(batch), did, ok: true };
  }
  const ended = batch.processing_status === 'ended';
  const did =
    ended && (batch.request_counts.succeeded === 0 || batch.archived_at)
      ? await dropped()
      : ended
        ? 'ended, nothing to cancel: a rerun of its review collects its answers'
        : 'already canceling';
  return { state: stateOf(batch), did, ok: true };
}

/** "in_progress (45 requests: 45 processing)", in the API's words. */
function stateOf(batch: MessageBatch): string {
  const c = batch.request_counts;
  const kinds = (['processing', 'succeeded', 'errored', 'canceled', 'expired'] as const).filter((k) => c[k] > 0);
  const total = kinds.reduce((n, k) => n + c[k], 0);
  const counts = kinds.map((k) => `${c[k]} ${k}`).join(', ');
  return `${batch.processing_status} (${plural(total, 'request')}${counts ? `: ${counts}` : ''})`;
}
