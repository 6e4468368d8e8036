/** Bounded waits for the extension-host suites: each names what it waited for when it gives up. */

/** `work`, or a rejection naming what it waited for after `ms`. */
export function withTimeout<T>(work: Thenable<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    Promise.resolve(work).finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`waited ${ms} ms for ${what}`)), ms))),
  ]);
}
