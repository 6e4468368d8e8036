// One way to wait in the e2e harness: poll a condition with a timeout and a message that says what was seen.

/**
 * Polls `check` (returning a truthy value when done) until `timeoutMs`; the error names `what` and
 * `seen()`. A check that throws an error marked `fatal: true` (see `fatal()`) ends the wait at once.
 */
export async function until(what, check, { timeoutMs = 30_000, intervalMs = 150, seen } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastErr;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
      lastErr = undefined;
    } catch (err) {
      if (err.fatal) throw err; // the condition can no longer become true: stop waiting
      lastErr = err;
    }
    if (Date.now() >= deadline) {
      let extra = '';
      if (seen) {
        try {
          extra = `; seen: ${await seen()}`;
        } catch (err) {
          extra = `; (could not read state: ${err.message})`;
        }
      }
      throw new Error(
        `timed out after ${(timeoutMs / 1000).toFixed(0)} s waiting for ${what}${extra}${lastErr ? `; last error: ${lastErr.message.split('\n')[0]}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** An error that stops an `until` at once (the awaited condition can no longer come true). */
export function fatal(message) {
  return Object.assign(new Error(message), { fatal: true });
}
