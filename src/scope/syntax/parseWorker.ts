/**
 * dist/parser.js: a worker thread that finds the functions of the files it is sent (parsePool.ts). Each
 * message is one file's path and text; each reply its inventory, or why it could not be found.
 */
import { parentPort } from 'node:worker_threads';
import * as z from 'zod/mini';
import { functionInventory } from './finder';

const Job = z.object({ id: z.number(), path: z.string(), text: z.string() });

parentPort?.on('message', (message: unknown) => {
  const job = Job.safeParse(message);
  if (!job.success) return parentPort?.postMessage({ id: -1, error: 'not a file to parse' });
  const { id, path, text } = job.data;
  functionInventory(path, text).then(
    (inventory) => parentPort?.postMessage({ id, inventory }),
    (err: unknown) => parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) }),
  );
});
