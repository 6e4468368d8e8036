// UI suite of the harness self-check (`node test/e2e/run.mjs --smoke`): drives the smoke extension
// through the same helpers the real suite uses, so each helper is proven against the live workbench.
import {
  clickProblem,
  clickWebviewLink,
  explorerContextMenu,
  goToLine,
  openFileFromExplorer,
  paletteEntries,
  readProblems,
  runCommand,
  waitForActiveEditor,
  waitForCursor,
  waitForNotification,
  waitForNotificationGone,
  waitForProblem,
  waitForSelectionStart,
} from '../workbench.mjs';

const COMMAND = 'Skeptic E2E Smoke: Hello';

export async function runUiSuite({ page, shot, step }) {
  await step('workbench shows the smoke workspace', async () => {
    await shot('workbench');
  });

  await step('the command palette finds the smoke command', async () => {
    const labels = await paletteEntries(page, 'Skeptic E2E Smoke', { expect: COMMAND });
    if (!labels.includes(COMMAND)) throw new Error(`palette rows: ${JSON.stringify(labels)}`);
  });

  await step('open demo/src/hello.ts from the Explorer and move the cursor to line 5', async () => {
    await openFileFromExplorer(page, 'demo/src/hello.ts');
    await goToLine(page, 5);
    await shot('hello-open-ln5');
  });

  await step(
    'palette runs the command; its progress notification comes and goes',
    async () => {
      await runCommand(page, COMMAND);
      await waitForNotification(page, 'Skeptic E2E Smoke');
      await shot('progress-notification');
      await waitForNotificationGone(page, 'Skeptic E2E Smoke');
    },
    45_000,
  );

  await step('Problems panel lists the SkepticSmoke finding at [Ln 1, Col 1]', async () => {
    const row = await waitForProblem(page, { source: 'SkepticSmoke', file: 'hello.ts' });
    if (row.location !== '[Ln 1, Col 1]')
      throw new Error(`row location is ${row.location}, expected [Ln 1, Col 1]: ${JSON.stringify(row)}`);
    if (row.code !== 'SMOKE1') throw new Error(`row code is "${row.code}", expected SMOKE1`);
    await shot('problems-panel');
  });

  await step('clicking the row puts the cursor at Ln 1, Col 1', async () => {
    await waitForCursor(page, { line: 5 }); // still where we left it
    await clickProblem(page, { source: 'SkepticSmoke', file: 'hello.ts' });
    await waitForActiveEditor(page, 'hello.ts');
    // The click selects the diagnostic's range (line 1, whole line): the status bar shows Ln 1 at once,
    // and the selection starts at Col 1.
    const c = await waitForCursor(page, { line: 1 });
    if (c.selected === 0)
      throw new Error(`expected the diagnostic's range to be selected, status bar says "${c.text}"`);
    await shot('problem-clicked-ln1');
    await waitForSelectionStart(page, { line: 1, col: 1 });
    await shot('selection-starts-ln1-col1');
  });

  await step('the report webview link "hello.ts:3" opens line 3', async () => {
    const label = await clickWebviewLink(page, 'hello.ts:3', { within: 'Smoke Report' });
    if (label !== 'hello.ts:3') throw new Error(`clicked "${label}"`);
    await waitForActiveEditor(page, 'hello.ts');
    await waitForCursor(page, { line: 3, col: 1 });
    await shot('webview-link-ln3');
  });

  await step(
    'Explorer right-click on demo/src/other.ts → the command adds a finding there',
    async () => {
      await explorerContextMenu(page, 'demo/src/other.ts', COMMAND);
      await waitForNotificationGone(page, 'Skeptic E2E Smoke');
      await waitForProblem(page, { source: 'SkepticSmoke', file: 'other.ts', location: '[Ln 1, Col 1]' });
      const rows = await readProblems(page);
      const smoke = rows.filter((r) => r.source === 'SkepticSmoke');
      if (smoke.length !== 2)
        throw new Error(`expected 2 SkepticSmoke rows (hello.ts, other.ts), got ${JSON.stringify(smoke)}`);
      await shot('explorer-context-menu-result');
    },
    45_000,
  );
}
