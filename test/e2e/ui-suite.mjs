// UI suite for the real Skeptic extension (issue 5 §3), run by `node test/e2e/run.mjs --suite ui`.
// Written ahead of the extension: the labels below follow issue 4 ("Review These Files", "Review
// Uncommitted Changes", "Show Last Report", source "Skeptic"); adjust them here if the extension's
// package.json differs. Everything it asserts comes from the live UI (the Problems row's own
// [Ln N, Col M], the webview link's own file:line), so it does not depend on the scenario's numbers.
//
// Knobs (env): SKEPTIC_E2E_UI_FILE  workspace-relative file to review (default: shop/cart.ts: the runner opens
//                                   a folder holding a copy of test/fixtures/shop as shop/)
//              SKEPTIC_E2E_REVIEW_TIMEOUT  seconds for a review to finish (default: 120)
import { basename } from 'node:path';
import {
  activeEditorTitle,
  clickProblem,
  clickWebviewLink,
  explorerContextMenu,
  fatal,
  findWebviewFrame,
  paletteEntries,
  readCursor,
  readNotifications,
  readProblems,
  runCommand,
  until,
  waitForActiveEditor,
  waitForCursor,
  waitForProblem,
  waitForSelectionStart,
  waitForWorkbench,
} from './workbench.mjs';

const FILE = process.env.SKEPTIC_E2E_UI_FILE || 'shop/cart.ts';
const REVIEW_TIMEOUT_MS = Number(process.env.SKEPTIC_E2E_REVIEW_TIMEOUT || 120) * 1000;
const SOURCE = 'Skeptic';
const REVIEW_FILES = 'Review These Files';
const UNCOMMITTED = /(^|: )Review Uncommitted Changes$/;
const SHOW_REPORT = /(^|: )Show Last Report$/;
const PROGRESS = /Skeptic|Review|Step \d/i;
const FILE_LINE = /([\w.\-/]+\.\w+):(\d+)/;
const REPORT_TAB = /Skeptic: code-review-/;
const PLANTED = { message: /^Loop while i < this\.items\.length\./, line: 17 };

export async function runUiSuite({ page, shot, step }) {
  await step('the workbench shows the fixture workspace', async () => {
    await shot('workbench');
  });

  await step(`Explorer: right-click ${FILE} → "${REVIEW_FILES}"`, async () => {
    await explorerContextMenu(page, FILE, REVIEW_FILES);
    await shot('review-started');
  });

  await step('the progress notification appears and completes', async () => {
    let seen = [];
    const noErrors = (ns) => {
      const err = ns.find((n) => n.severity === 'error');
      if (err) throw fatal(`an error notification appeared instead: "${err.message}"`);
    };
    await until('a Skeptic progress notification', async () => {
      seen = await readNotifications(page);
      noErrors(seen);
      return seen.some((n) => PROGRESS.test(n.message));
    }, { seen: async () => JSON.stringify(seen) });
    await shot('progress-notification');
    await until('the review\'s progress notification to complete', async () => {
      seen = await readNotifications(page);
      noErrors(seen);
      return !seen.some((n) => n.progress && PROGRESS.test(n.message));
    }, { timeoutMs: REVIEW_TIMEOUT_MS, seen: async () => JSON.stringify(seen) });
    // The review opens its report by itself, in an editor tab titled after the report file.
    const reportTab = page.locator('.tabs-container .tab', { hasText: REPORT_TAB });
    await until('the report tab to open by itself', async () => (await reportTab.count()) > 0, { timeoutMs: 15_000 });
  }, REVIEW_TIMEOUT_MS + 30_000);

  let finding;
  await step(`the Problems panel lists findings with source "${SOURCE}"`, async () => {
    // The shop scenario plants this must-fix finding at cart.ts line 17: the row must say exactly that.
    finding = await waitForProblem(page, { source: SOURCE, file: basename(FILE), message: PLANTED.message, line: PLANTED.line, col: 1 });
    const all = (await readProblems(page)).filter((p) => p.source === SOURCE);
    if (all.some((p) => !p.line || !p.col)) throw new Error(`a Skeptic row without [Ln, Col]: ${JSON.stringify(all)}`);
    await shot('problems-panel');
  });

  await step('clicking a finding opens the file at its line', async () => {
    await clickProblem(page, { source: SOURCE, file: finding.file, location: finding.location });
    await waitForActiveEditor(page, finding.file);
    await waitForCursor(page, { line: finding.line }).catch(async (err) => {
      // A multi-line range puts the cursor at its end: check where the selection starts instead.
      if ((await readCursor(page))?.selected) return;
      throw err;
    });
    await shot('finding-opened');
    await waitForSelectionStart(page, { line: finding.line, col: finding.col });
  });

  await step('the report webview opens and a file:line link jumps there', async () => {
    const frame = await findWebviewFrame(page, FILE_LINE, { timeoutMs: 5000 }).catch(async () => {
      // Clicking the finding put the file in front of the report (same editor group): bring it back as a user would.
      await runCommand(page, SHOW_REPORT, { query: 'Show Last Report' });
      return findWebviewFrame(page, FILE_LINE);
    });
    await shot('report-webview');
    const links = (await frame.locator('a').allTextContents()).map((t) => t.trim()).filter((t) => FILE_LINE.test(t));
    if (links.length === 0) throw new Error('the report webview has no file:line link');
    const [, file, lineText] = FILE_LINE.exec(links[0]);
    const line = Number(lineText);
    // Usually the report is the active editor here, so no Ln/Col shows before the click; when a text
    // editor is active, the jump must still land on `line`.
    const before = await readCursor(page);
    await clickWebviewLink(page, links[0], { within: links[0] });
    if (before?.line === line) await until('the link to activate its file', async () => (await activeEditorTitle(page)) === basename(file), { timeoutMs: 10_000 });
    await waitForActiveEditor(page, basename(file));
    await waitForCursor(page, { line });
    await shot('report-link-followed');
  });

  await step('the command palette finds "Review Uncommitted Changes"', async () => {
    const labels = await paletteEntries(page, 'Review Uncommitted Changes', { expect: UNCOMMITTED });
    await until('a palette label for Review Uncommitted Changes', () => labels.some((l) => UNCOMMITTED.test(l)), { timeoutMs: 1000 });
  });

  await step('the report comes back after a window reload', async () => {
    await page.reload();
    await waitForWorkbench(page);
    const reportTab = page.locator('.tabs-container .tab', { hasText: REPORT_TAB });
    await until('the report tab after the reload', async () => (await reportTab.count()) > 0, { timeoutMs: 30_000 });
    await reportTab.first().click();
    await findWebviewFrame(page, FILE_LINE, { timeoutMs: 30_000 });
    await shot('report-restored');
  });
}
