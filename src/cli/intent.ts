/** `--intent FILE|TEXT`: the named file's start when it is one, else the text itself. */
import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { INTENT_CAP, type Intent } from '../model/intent';
import { UsageError } from './help';

/** Bytes enough for INTENT_CAP characters of any UTF-8 text, and one more: a longer file reads as cut. */
const READ_BYTES = INTENT_CAP * 4 + 4;

export async function loadIntent(cwd: string, value: string | undefined): Promise<Intent | undefined> {
  if (value === undefined) return undefined;
  const path = resolve(cwd, value);
  const st = await stat(path).catch(() => null);
  if (!st?.isFile()) return { source: '--intent', text: value };
  let text: string;
  try {
    const file = await open(path);
    try {
      const { buffer, bytesRead } = await file.read(Buffer.alloc(Math.min(READ_BYTES, st.size)), 0, READ_BYTES, 0);
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await file.close();
    }
  } catch (err) {
    throw new UsageError(`--intent ${value}: ${(err as Error).message}`);
  }
  if (!text.trim()) throw new UsageError(`--intent ${value}: the file is empty`);
  return { source: `--intent file ${value}`, text };
}
