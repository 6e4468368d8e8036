/** Starts bench/floor/sdkOnly.ts's bundle as dist/cli.js starts the CLI's: through V8's code cache (src/boot/). */
import { join } from 'node:path';
import { runBundle } from '../../src/boot/codeCache';

runBundle(join(__dirname, 'sdk-only.bundle.js'), 'run');
