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
  answerQuickInput,
  chooseQuickFix,
  openQuickFix,
  readHover,
  viewRows,
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
// The progress line: step, counts, calls, dollars and time ("Step 3/5 · review · 2/5 functions · 7 calls · $0.03 · 0:04").
const MONEY_LINE = /Step [1-5]\/5 · \w+ · .* · \d+ calls? · \$\d+\.\d\d · \d+:\d\d/;
const ACTIONS = ['Skeptic: Dismiss A1…', 'Skeptic: Copy Fix Prompt', 'Skeptic: Show in Report'];

export async function runUiSuite({ page, shot, step }) {
  await step('the workbench shows the fixture workspace', async () => {
    await shot('workbench');
  });

  await step(`Explorer: right-click ${FILE} → "${REVIEW_FILES}"`, async () => {
    await explorerContextMenu(page, FILE, REVIEW_FILES);
    await shot('review-started');
  });

  await step(
    'the progress notification appears and completes',
    async () => {
      let seen = [];
      const noErrors = (ns) => {
        const err = ns.find((n) => n.severity === 'error');
        if (err) throw fatal(`an error notification appeared instead: "${err.message}"`);
      };
      await until(
        'a Skeptic progress notification with calls, cost and time',
        async () => {
          seen = await readNotifications(page);
          noErrors(seen);
          return seen.some((n) => PROGRESS.test(n.message) && MONEY_LINE.test(n.message));
        },
        { seen: async () => JSON.stringify(seen) },
      );
      await shot('progress-notification');
      await until(
        "the review's progress notification to complete",
        async () => {
          seen = await readNotifications(page);
          noErrors(seen);
          return !seen.some((n) => n.progress && PROGRESS.test(n.message));
        },
        { timeoutMs: REVIEW_TIMEOUT_MS, seen: async () => JSON.stringify(seen) },
      );
      // The review opens its report by itself, in an editor tab titled after the report file.
      const reportTab = page.locator('.tabs-container .tab', { hasText: REPORT_TAB });
      await until('the report tab to open by itself', async () => (await reportTab.count()) > 0, { timeoutMs: 15_000 });
    },
    REVIEW_TIMEOUT_MS + 30_000,
  );

  let finding;
  await step(`the Problems panel lists findings with source "${SOURCE}"`, async () => {
    // The shop scenario plants this must-fix finding at cart.ts line 17: the row must say exactly that.
    finding = await waitForProblem(page, {
      source: SOURCE,
      file: basename(FILE),
      message: PLANTED.message,
      line: PLANTED.line,
      col: 1,
    });
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

  await step(
    "the hover on the planted finding names its rule, priority, confidence and the challenger's verdict",
    async () => {
      await runCommand(page, 'Show or Focus Hover');
      const text = await readHover(page, 'A1 · Bugs');
      if (!/must fix, high confidence/.test(text) || !/Challenger:/.test(text))
        throw new Error(`the hover lacks priority, confidence or verdict: ${text}`);
      await shot('hover');
      await page.keyboard.press('Escape');
    },
  );

  await step('the lightbulb on the planted finding offers Dismiss, Copy Fix Prompt and Show in Report', async () => {
    await waitForSelectionStart(page, { line: finding.line, col: finding.col });
    const labels = await openQuickFix(page, { expect: ACTIONS[0] });
    const missing = ACTIONS.filter((a) => !labels.includes(a));
    if (missing.length)
      throw new Error(`the lightbulb menu lacks ${JSON.stringify(missing)}: ${JSON.stringify(labels)}`);
    await shot('lightbulb-menu');
    await page.keyboard.press('Escape');
  });

  await step('the Skeptic findings view shows the findings by file and priority, with counts', async () => {
    const problems = (await readProblems(page)).filter((p) => p.source === SOURCE && p.file === basename(FILE));
    await runCommand(page, /Focus on Findings View/, { query: 'Focus on Findings View' });
    let rows = null;
    await until(
      'the findings view to list the reviewed file with its count',
      async () => {
        rows = await viewRows(page, 'Findings');
        return (
          rows?.some((r) => r === `${FILE} — ${problems.length} finding${problems.length === 1 ? '' : 's'}`) &&
          rows.some((r) => r === 'Must fix — 1')
        );
      },
      { timeoutMs: 20_000, seen: async () => JSON.stringify(rows) },
    );
    if (!rows.some((r) => /^Last run: /.test(r)))
      throw new Error(`no run summary in the findings view: ${JSON.stringify(rows)}`);
    await shot('findings-view');
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
    if (before?.line === line)
      await until('the link to activate its file', async () => (await activeEditorTitle(page)) === basename(file), {
        timeoutMs: 10_000,
      });
    await waitForActiveEditor(page, basename(file));
    await waitForCursor(page, { line });
    await shot('report-link-followed');
  });

  await step('the command palette finds "Review Uncommitted Changes"', async () => {
    const labels = await paletteEntries(page, 'Review Uncommitted Changes', { expect: UNCOMMITTED });
    await until('a palette label for Review Uncommitted Changes', () => labels.some((l) => UNCOMMITTED.test(l)), {
      timeoutMs: 1000,
    });
  });

  await step('dismissing the planted finding from the lightbulb removes it', async () => {
    await clickProblem(page, { source: SOURCE, file: finding.file, location: finding.location });
    await waitForActiveEditor(page, finding.file);
    await waitForSelectionStart(page, { line: finding.line, col: finding.col });
    await openQuickFix(page, { expect: ACTIONS[0] });
    await chooseQuickFix(page, ACTIONS[0]);
    await answerQuickInput(page, 'pick', 'False positive');
    await answerQuickInput(page, 'text', 'the loop bound is checked by the caller');
    await answerQuickInput(page, 'pick', 'Only for me');
    await until(
      'the planted finding to leave the Problems panel',
      async () => !(await readProblems(page)).some((p) => p.source === SOURCE && PLANTED.message.test(p.message)),
      { timeoutMs: 10_000 },
    );
  });

  await step(
    `re-running the review keeps the dismissed finding gone`,
    async () => {
      await explorerContextMenu(page, FILE, REVIEW_FILES);
      // The second review of the same file writes its own report (never over the first) and opens it.
      const secondReport = page.locator('.tabs-container .tab', {
        hasText: new RegExp(`code-review-${basename(FILE).replace(/\.\w+$/, '')}-v2\\.md`),
      });
      let seen = [];
      await until(
        'the re-run to finish and open its report',
        async () => {
          seen = await readNotifications(page);
          return !seen.some((n) => n.progress && PROGRESS.test(n.message)) && (await secondReport.count()) > 0;
        },
        { timeoutMs: REVIEW_TIMEOUT_MS, seen: async () => JSON.stringify(seen) },
      );
      await waitForProblem(page, { source: SOURCE, file: basename(FILE) });
      // The status bar and the report are back to "finished": the run is over, and the finding did not return.
      await until(
        'the status bar to show the finished count',
        async () => /Skeptic: \d+ findings?/.test(await page.locator('.monaco-workbench .part.statusbar').innerText()),
        { timeoutMs: REVIEW_TIMEOUT_MS },
      );
      const rows = (await readProblems(page)).filter((p) => p.source === SOURCE);
      if (rows.some((p) => PLANTED.message.test(p.message)))
        throw new Error(`the dismissed finding came back: ${JSON.stringify(rows)}`);
      await shot('dismissed-stays-gone');
    },
    REVIEW_TIMEOUT_MS + 30_000,
  );

  await step('the report comes back after a window reload', async () => {
    await page.reload();
    await waitForWorkbench(page);
    const reportTab = page.locator('.tabs-container .tab', { hasText: REPORT_TAB });
    await until('the report tab after the reload', async () => (await reportTab.count()) > 0, { timeoutMs: 30_000 });
    await reportTab.first().click();
    await findWebviewFrame(page, FILE_LINE, { timeoutMs: 30_000 });
    // The findings come back with it, from the last result (not re-run): Problems lists them again.
    await waitForProblem(page, { source: SOURCE, file: basename(FILE) }, { timeoutMs: 30_000 });
    await shot('report-restored');
  });
}
