/**
 * `node dist/fake-anthropic.js --port N --scenario FILE [--latency MS] [--ms-per-token MS] [--context-window N]
 *   [--bytes-per-token N]
 *   [--batch-delay MS] [--log FILE.jsonl] [--log-limit N]`
 * Serves the fake Messages API until SIGINT/SIGTERM; point the CLI's base URL at the printed address.
 */
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadScenario, type LoadedScenario } from './scenario';
import { startFakeAnthropic } from './server';

const USAGE =
  'usage: fake-anthropic [--port N] [--scenario FILE] [--latency MS] [--ms-per-token MS] [--context-window N] [--bytes-per-token N] [--batch-delay MS] [--log FILE.jsonl] [--log-limit N]';

function fail(reason: string): never {
  console.error(`fake-anthropic: ${reason}`);
  process.exit(2);
}

function count(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) fail(`--${flag} must be a whole number, got "${value}"`);
  return n;
}

async function main(): Promise<void> {
  let values: {
    port?: string;
    scenario?: string;
    latency?: string;
    'ms-per-token'?: string;
    'context-window'?: string;
    'bytes-per-token'?: string;
    'batch-delay'?: string;
    log?: string;
    'log-limit'?: string;
  };
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        scenario: { type: 'string' },
        latency: { type: 'string' },
        'ms-per-token': { type: 'string' },
        'context-window': { type: 'string' },
        'bytes-per-token': { type: 'string' },
        'batch-delay': { type: 'string' },
        log: { type: 'string' },
        'log-limit': { type: 'string' },
      },
    }));
  } catch (err) {
    fail(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
  let scenario: LoadedScenario | undefined;
  try {
    scenario = values.scenario === undefined ? undefined : loadScenario(values.scenario);
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const log = values.log === undefined ? undefined : createWriteStream(values.log);
  const server = await startFakeAnthropic({
    port: count('port', values.port),
    latencyMs: count('latency', values.latency),
    msPerOutputToken: count('ms-per-token', values['ms-per-token']),
    contextWindow: count('context-window', values['context-window']),
    bytesPerToken: count('bytes-per-token', values['bytes-per-token']),
    batchDelayMs: count('batch-delay', values['batch-delay']),
    scenario,
    logLimit: count('log-limit', values['log-limit']),
    onLogged: log && ((entry) => log.write(`${JSON.stringify(entry)}\n`)),
  });
  console.log(`fake-anthropic listening on ${server.url}`);

  const stop = () => {
    void server.close().then(() => log?.end());
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
