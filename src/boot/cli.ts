/** dist/cli.js: starts the command line (dist/cli.bundle.js, built from src/cli.ts) through the code cache. */
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runBundle } from './codeCache';

/**
 * How far V8 lets the heap grow past what survived its last full collection. A review's live heap stays near
 * 40 MB, but it allocates each request's JSON and drops it, and V8's own factor (up to 4×) let the heap's capacity
 * climb with the length of the run: 388 MB peak RSS reviewing 6,000 files, 226 MB with 20 %, in the same time
 * (docs/caching.md, "Memory"). Read at every collection, so it holds when set here; only for the CLI's own
 * process (the extension's worker shares the editor's V8 and leaves its flags alone), and not over a user's own.
 */
const HEAP_GROWING_PERCENT = 20;
if (![...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('heap-growing-percent')))
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);

const COMMANDS = new Set(['review', 'plan', 'eval']);
const command = process.argv[2] ?? '';
runBundle(join(__dirname, 'cli.bundle.js'), COMMANDS.has(command) ? command : 'other');
