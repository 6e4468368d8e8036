/** dist/worker.js: starts the worker thread (dist/worker.bundle.js, built from src/worker.ts) through the code cache. */
import { join } from 'node:path';
import { runBundle } from './codeCache';

runBundle(join(__dirname, 'worker.bundle.js'));
