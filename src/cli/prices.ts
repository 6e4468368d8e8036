/** `--prices FILE`: price overrides per model from a JSON file, checked before any call. */
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parsePriceOverrides } from '../app/prices';
import type { PriceOverrides } from '../model/pricing';
import { UsageError } from './help';

export async function loadPrices(cwd: string, file: string | undefined): Promise<PriceOverrides | undefined> {
  if (file === undefined) return undefined;
  let value: unknown;
  try {
    // A FIFO or a device would never end (or never start): only a regular file is read.
    if (!(await stat(resolve(cwd, file))).isFile()) throw new Error('not a regular file');
    value = JSON.parse(await readFile(resolve(cwd, file), 'utf8'));
  } catch (err) {
    throw new UsageError(`--prices ${file}: ${(err as Error).message}`);
  }
  try {
    return parsePriceOverrides(value, `--prices ${file}`);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
