/**
 * `npm run test:integration`: the extension-host suite in a VS Code downloaded by @vscode/test-electron
 * (needs network access to VS Code's download servers; on machines without it, test/e2e/run.mjs runs the
 * same suite in code-server).
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  const repo = join(__dirname, '../../..');
  const workspace = mkdtempSync(join(tmpdir(), 'skeptic-it-'));
  cpSync(join(repo, 'test/fixtures/shop'), join(workspace, 'shop'), { recursive: true });
  await runTests({
    // Beside Skeptic, the test-only language model vendor the vscode-lm tests register their provider under.
    extensionDevelopmentPath: [repo, join(repo, 'test/e2e/models-extension')],
    extensionTestsPath: join(__dirname, 'index.js'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
