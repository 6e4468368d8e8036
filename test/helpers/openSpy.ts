/**
 * Watches every `fs/promises` open while `work` runs: `before` sees each path first and may hold the open back
 * (a promise). The real open is put back whatever `work` does.
 */
import fsp from 'node:fs/promises';

export async function whileOpening<T>(before: (path: string) => unknown, work: () => Promise<T>): Promise<T> {
  const real = fsp.open;
  (fsp as { open: typeof fsp.open }).open = (async (path: Parameters<typeof fsp.open>[0], ...rest: []) => {
    await before(String(path));
    return real(path, ...rest);
  }) as typeof fsp.open;
  try {
    return await work();
  } finally {
    (fsp as { open: typeof fsp.open }).open = real;
  }
}
