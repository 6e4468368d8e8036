/**
 * The extension-host test entry: runs the Skeptic suite with mocha inside a real VS Code and writes its
 * result to SKEPTIC_E2E_RESULT (where set), because some hosts report success however run() ends.
 * One suite, two launchers: @vscode/test-electron (runTest.ts) and code-server (test/e2e/run.mjs).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 120_000, color: false });
  mocha.addFile(join(__dirname, 'suite.js'));
  return new Promise((resolve, reject) => {
    const failures: Array<{ title: string; error: string }> = [];
    const runner = mocha.run((failed) => {
      const result = { passed: runner.stats?.passes ?? 0, failed, failures };
      if (process.env.SKEPTIC_E2E_RESULT) writeFileSync(process.env.SKEPTIC_E2E_RESULT, JSON.stringify(result, null, 2));
      if (failed > 0) reject(new Error(`${failed} extension-host tests failed`));
      else resolve();
    });
    runner.on('fail', (test, err: Error) => failures.push({ title: test.fullTitle(), error: err.stack ?? err.message }));
  });
}
