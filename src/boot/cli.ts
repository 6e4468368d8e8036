/** dist/cli.js: starts the command line (dist/cli.bundle.js, built from src/cli.ts) through the code cache. */
import { join } from 'node:path';
import { runBundle } from './codeCache';

const COMMANDS = new Set(['review', 'plan', 'eval']);
const command = process.argv[2] ?? '';
runBundle(join(__dirname, 'cli.bundle.js'), COMMANDS.has(command) ? command : 'other');
