/**
 * The extension-host test entry: runs the Skeptic suite with mocha inside a real VS Code and writes its
 * result to SKEPTIC_E2E_RESULT (where set), because some hosts report success however run() ends.
 * One suite, two launchers: @vscode/test-electron (runTest.ts) and code-server (test/e2e/run.mjs).
 */
import { join } from 'node:path';
import { runMochaSuite } from '../e2e/exthost-mocha.cjs';

export function run(): Promise<void> {
  // SKEPTIC_E2E_GREP (run.mjs --grep) runs the tests whose titles match it, each test being self-contained.
  return runMochaSuite({
    files: [join(__dirname, 'suite.js'), join(__dirname, 'editorModels.js')],
    timeoutMs: 120_000,
    grep: process.env.SKEPTIC_E2E_GREP || undefined,
  });
}
