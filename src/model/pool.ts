/**
 * `fn` over every item with at most `limit` calls in flight, results in the items' order. For many small
 * tasks (a file each, over a tree of tens of thousands): a few workers pull the next index, so nothing queues
 * per item (a Semaphore's queue is meant for a few hundred waiting model calls).
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
