// Reusable playwright-core helpers for the VS Code workbench (code-server 4.139.1 = VS Code 1.139.1,
// served to Chromium). Every wait is a wait-for-condition with a timeout and a message that says what
// was expected and what was seen instead; nothing sleeps a fixed time to "let the UI settle".
//
// The settings the runner writes make the DOM predictable: explorer.compactFolders=false (one row per
// folder), problems.defaultViewMode="tree", workbench.startupEditor="none".

import { fatal, until } from './lib/wait.mjs';

// The suites wait through these too.
export { fatal, until };

const S = {
  workbench: '.monaco-workbench',
  statusbar: '.monaco-workbench .part.statusbar',
  quickInput: '.quick-input-widget',
  quickInputBox: '.quick-input-widget .quick-input-box input',
  quickRows: '.quick-input-widget .quick-input-list .monaco-list-row',
  markersPanel: '.markers-panel',
  markerRows: '.markers-panel .monaco-list-row',
  cursor: '[id="status.editor.selection"]',
  explorer: '.explorer-folders-view',
  explorerRows: '.explorer-folders-view .monaco-list-row',
  menu: '.context-view .monaco-menu',
  toastMessages: '.notifications-toasts .notification-toast .notification-list-item-message',
  activeTab: '.editor-group-container.active .tab.active',
  actionWidget: '.action-widget',
  actionRows: '.action-widget .monaco-list-row',
  hover: '.monaco-hover:not(.hidden)',
  paneHeaders: '.pane-header',
};

const DEFAULT_TIMEOUT = 30_000;

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A label matches a string exactly, or a RegExp anywhere. */
function labelIs(label, want) {
  return want instanceof RegExp ? want.test(label) : label === want;
}

async function visible(page, selector) {
  return page
    .locator(selector)
    .first()
    .isVisible()
    .catch(() => false);
}

// ---------------------------------------------------------------------------------------------- workbench

/** Waits until the workbench is up: status bar visible and, with `folder`, the Explorer listing entries. */
export async function waitForWorkbench(page, { timeoutMs = 90_000, folder = true } = {}) {
  await until('the workbench (.monaco-workbench with a status bar)', () => visible(page, S.statusbar), {
    timeoutMs,
    seen: async () => `title "${await page.title()}", url ${page.url()}`,
  });
  if (folder) {
    await until(
      'the Explorer to list the workspace folder',
      async () => (await page.locator(S.explorerRows).count()) > 0,
      {
        timeoutMs,
        seen: async () => `explorer visible: ${await visible(page, S.explorer)}`,
      },
    );
  }
}

// ------------------------------------------------------------------------------------- command palette

async function quickInputOpen(page) {
  return visible(page, S.quickInput);
}

async function closeQuickInput(page) {
  if (await quickInputOpen(page)) {
    await page.keyboard.press('Escape');
    await until('the quick input to close', async () => !(await quickInputOpen(page)), { timeoutMs: 5000 });
  }
}

async function openPalette(page, text) {
  await closeQuickInput(page);
  await page.keyboard.press('F1');
  await until('the command palette to open (F1)', () => visible(page, S.quickInputBox), { timeoutMs: 10_000 });
  await page.locator(S.quickInputBox).fill(text);
}

/** Labels of the palette's visible rows (in list order). */
async function quickRowLabels(page) {
  return page.evaluate((sel) => {
    const rows = [...document.querySelectorAll(sel)].sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
    return rows.map((r) => ({
      label: (r.querySelector('.label-name')?.textContent ?? r.getAttribute('aria-label') ?? '').trim(),
      focused: r.classList.contains('focused'),
      index: Number(r.dataset.index),
    }));
  }, S.quickRows);
}

/**
 * Lists the command palette's entries for `query` (the palette stays closed afterwards). Retries until
 * an entry whose label equals `expect` (when given) shows up: contributed commands appear only once the
 * extension host has registered the contributions.
 */
export async function paletteEntries(page, query, { expect, timeoutMs = DEFAULT_TIMEOUT } = {}) {
  let labels = [];
  try {
    await until(
      expect
        ? `the command palette to list ${expect} for "${query}"`
        : `the command palette to list entries for "${query}"`,
      async () => {
        await openPalette(page, `>${query}`);
        const found = await until(
          'palette rows',
          async () => {
            labels = (await quickRowLabels(page)).map((r) => r.label);
            return expect ? labels.some((l) => labelIs(l, expect)) : labels.length > 0;
          },
          { timeoutMs: 3000 },
        ).catch(() => false);
        return found;
      },
      { timeoutMs, intervalMs: 500, seen: async () => JSON.stringify(labels) },
    );
    return labels;
  } finally {
    await closeQuickInput(page).catch(() => {});
  }
}

/**
 * F1 → type the command's title → Enter, on the row whose label is exactly `title` (a string), or
 * matches `title` (a RegExp; then `query` is what is typed, default: the RegExp's source).
 */
export async function runCommand(page, title, { query, timeoutMs = DEFAULT_TIMEOUT } = {}) {
  const typed = query ?? (title instanceof RegExp ? title.source.replace(/[\\^$]/g, '') : title);
  let labels = [];
  await until(
    `the command palette to offer ${title instanceof RegExp ? title : `"${title}"`}`,
    async () => {
      await openPalette(page, `>${typed}`);
      const ok = await until(
        'palette rows',
        async () => {
          const rows = await quickRowLabels(page);
          labels = rows.map((r) => r.label);
          return rows.some((r) => labelIs(r.label, title));
        },
        { timeoutMs: 3000 },
      ).catch(() => false);
      if (!ok) await closeQuickInput(page);
      return ok;
    },
    { timeoutMs, intervalMs: 500, seen: async () => `palette rows ${JSON.stringify(labels)}` },
  );
  // Focus the matching row (another command may sort first), then Enter.
  await until(
    `the palette row ${title} to take focus`,
    async () => {
      const rows = await quickRowLabels(page);
      const focused = rows.find((r) => r.focused);
      if (focused && labelIs(focused.label, title)) return true;
      const target = rows.find((r) => labelIs(r.label, title));
      if (target) await page.keyboard.press(focused && focused.index > target.index ? 'ArrowUp' : 'ArrowDown');
      return false;
    },
    { timeoutMs: 10_000, seen: async () => JSON.stringify(await quickRowLabels(page)) },
  );
  await page.keyboard.press('Enter');
  await until(
    `the palette to close after running ${title}`,
    async () => {
      if (!(await quickInputOpen(page))) return true;
      // The command may have opened its own quick input: then the palette's text is gone.
      const value = await page
        .locator(S.quickInputBox)
        .inputValue()
        .catch(() => '');
      return value !== `>${typed}`;
    },
    { timeoutMs: 10_000 },
  );
}

/** Moves the cursor of the active editor to `line` (Go to Line through the palette's ':' mode). */
export async function goToLine(page, line, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  await openPalette(page, `:${line}`);
  // Enter before the Go to Line provider has taken the text does nothing: wait for its row first.
  await until(
    `the Go to Line row for line ${line}`,
    async () => (await quickRowLabels(page)).some((r) => new RegExp(`\\bline ${line}\\b`).test(r.label)),
    {
      timeoutMs: 10_000,
      seen: async () => JSON.stringify(await quickRowLabels(page)),
    },
  );
  await page.keyboard.press('Enter');
  await until('the Go to Line input to close', async () => !(await quickInputOpen(page)), { timeoutMs: 5000 });
  return waitForCursor(page, { line }, { timeoutMs });
}

// ----------------------------------------------------------------------------------------- status bar

/** The status bar's `Ln N, Col M`, or undefined when no text editor is active. */
export async function readCursor(page) {
  const el = page.locator(S.cursor).first();
  if (!(await el.isVisible().catch(() => false))) return undefined;
  const text = (await el.textContent()) ?? '';
  const m = /Ln (\d+), Col (\d+)/.exec(text);
  const sel = /\((\d+) selected\)/.exec(text);
  return m
    ? { line: Number(m[1]), col: Number(m[2]), selected: sel ? Number(sel[1]) : 0, text: text.trim() }
    : undefined;
}

/** Waits until the status bar shows `Ln line` (and `Col col` when given). */
export async function waitForCursor(page, { line, col }, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  const want = `Ln ${line}${col === undefined ? '' : `, Col ${col}`}`;
  return until(
    `the status bar to show "${want}"`,
    async () => {
      const c = await readCursor(page);
      return c && c.line === line && (col === undefined || c.col === col) ? c : undefined;
    },
    { timeoutMs, seen: async () => (await readCursor(page))?.text ?? 'no Ln/Col item in the status bar' },
  );
}

/**
 * Where the active editor's selection starts. Clicking a Problems row selects the diagnostic's whole
 * range, and the status bar then shows the cursor at the range's END ("Ln 1, Col 46 (45 selected)").
 * With a selection, this focuses the editor group and presses ArrowLeft, which collapses the selection
 * to its start, then waits for the status bar to show `line` (and `col`). Moves the cursor.
 */
export async function waitForSelectionStart(page, { line, col }, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  const c = await until('a text editor cursor in the status bar', () => readCursor(page), { timeoutMs });
  if (c.selected > 0) {
    await runCommand(page, 'View: Focus Active Editor Group', { timeoutMs });
    await page.keyboard.press('ArrowLeft');
  }
  return waitForCursor(page, { line, col }, { timeoutMs });
}

// --------------------------------------------------------------------------------------------- editors

/** The active editor tab's label (scoped to the active editor group), or undefined. */
export async function activeEditorTitle(page) {
  const tab = page.locator(S.activeTab).first();
  if (!(await tab.isVisible().catch(() => false))) return undefined;
  // Since VS Code 1.13x a file tab's label is split: <a class="label-name">hello</a><span class="label-suffix">.ts</span>.
  return tab.evaluate((el) => {
    const name =
      (el.querySelector('.label-name')?.textContent ?? '') + (el.querySelector('.label-suffix')?.textContent ?? '');
    return (el.getAttribute('data-resource-name') || name).trim();
  });
}

export async function waitForActiveEditor(page, name, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  return until(`the active editor to be "${name}"`, async () => (await activeEditorTitle(page)) === name, {
    timeoutMs,
    seen: async () => `active tab "${await activeEditorTitle(page)}"`,
  });
}

// -------------------------------------------------------------------------------------- Problems panel

/** Opens the Problems panel (Ctrl+Shift+M) unless it is already showing. */
export async function openProblems(page, { timeoutMs = 20_000 } = {}) {
  // The shortcut is lost when focus sits in a webview or a closing toast: press it again until the panel shows.
  await until(
    'the Problems panel to open (Ctrl+Shift+M)',
    async () => {
      if (await visible(page, S.markersPanel)) return true;
      await page
        .locator(S.workbench)
        .first()
        .focus()
        .catch(() => undefined);
      await page.keyboard.press('Control+Shift+M');
      return until('the panel after Ctrl+Shift+M', () => visible(page, S.markersPanel), { timeoutMs: 2000 }).then(
        () => true,
        () => false,
      );
    },
    { timeoutMs },
  );
}

/**
 * Reads the Problems panel's marker rows in display order:
 * [{ file, message, source, code, line, col, location: '[Ln N, Col M]', index }].
 */
export async function readProblems(page) {
  return page.evaluate((sel) => {
    const rows = [...document.querySelectorAll(sel)].sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
    const out = [];
    let file;
    for (const r of rows) {
      const details = r.querySelector('.marker-message-details-container');
      if (!details) {
        file =
          (
            (r.querySelector('.label-name')?.textContent ?? '') + (r.querySelector('.label-suffix')?.textContent ?? '')
          ).trim() || file;
        continue;
      }
      const text = (q) => (r.querySelector(q)?.textContent ?? '').trim();
      const location = text('.marker-line');
      const m = /Ln (\d+), Col (\d+)/.exec(location);
      out.push({
        file,
        message: text('.marker-message'),
        source: text('.marker-source'),
        code: text('.marker-code').replace(/^\(|\)$/g, ''),
        location,
        line: m ? Number(m[1]) : undefined,
        col: m ? Number(m[2]) : undefined,
        index: Number(r.dataset.index),
      });
    }
    return out;
  }, S.markerRows);
}

function problemMatches(p, want) {
  if (typeof want === 'function') return want(p);
  return Object.entries(want).every(([k, v]) => (v instanceof RegExp ? v.test(String(p[k] ?? '')) : p[k] === v));
}

function describeWant(want) {
  if (typeof want === 'function') return want.toString();
  return JSON.stringify(
    Object.fromEntries(Object.entries(want).map(([k, v]) => [k, v instanceof RegExp ? String(v) : v])),
  );
}

/** Opens the Problems panel and waits for a row matching `want` (object of fields or predicate). */
export async function waitForProblem(page, want, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  await openProblems(page);
  let rows = [];
  return until(
    `a Problems row matching ${describeWant(want)}`,
    async () => {
      rows = await readProblems(page);
      return rows.find((p) => problemMatches(p, want));
    },
    { timeoutMs, seen: async () => JSON.stringify(rows.map((p) => ({ ...p, index: undefined }))) },
  );
}

/** Clicks the Problems row matching `want`; returns the row. */
export async function clickProblem(page, want, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  const row = await waitForProblem(page, want, { timeoutMs });
  await page.locator(`${S.markerRows}[data-index="${row.index}"] .marker-message`).first().click();
  return row;
}

// ---------------------------------------------------------------------------------------------- Explorer

/** Shows the Explorer view (Ctrl+Shift+E) unless it is already showing. */
export async function openExplorer(page, { timeoutMs = 10_000 } = {}) {
  if (await visible(page, S.explorer)) return;
  await page.keyboard.press('Control+Shift+E');
  await until('the Explorer view to open (Ctrl+Shift+E)', () => visible(page, S.explorer), { timeoutMs });
}

async function explorerRows(page) {
  return page.evaluate(
    (sel) =>
      [...document.querySelectorAll(sel)].map((r) => ({
        label: (
          (r.querySelector('.label-name')?.textContent ?? '') + (r.querySelector('.label-suffix')?.textContent ?? '')
        ).trim(),
        level: Number(r.getAttribute('aria-level')),
        expanded: r.getAttribute('aria-expanded'),
        index: Number(r.dataset.index),
      })),
    S.explorerRows,
  );
}

/**
 * Makes `relPath` (workspace-relative, '/'-separated) visible in the Explorer, expanding folders on the
 * way, and returns a locator of its row.
 */
export async function revealInExplorer(page, relPath, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  await openExplorer(page);
  const parts = relPath.split('/').filter(Boolean);
  let rows = [];
  let row;
  for (let i = 0; i < parts.length; i++) {
    const level = i + 1;
    const found = await until(
      `"${parts.slice(0, i + 1).join('/')}" in the Explorer`,
      async () => {
        rows = await explorerRows(page);
        return rows.find((r) => r.label === parts[i] && r.level === level);
      },
      { timeoutMs, seen: async () => JSON.stringify(rows.map((r) => `${'  '.repeat(r.level - 1)}${r.label}`)) },
    );
    row = page.locator(`${S.explorerRows}[data-index="${found.index}"]`);
    if (i < parts.length - 1 && found.expanded === 'false') {
      await row.click();
      await until(
        `folder "${parts[i]}" to expand in the Explorer`,
        async () => (await row.getAttribute('aria-expanded')) === 'true',
        { timeoutMs },
      );
    }
  }
  await row.scrollIntoViewIfNeeded();
  return row;
}

/** Opens a file by clicking it in the Explorer and waits for its editor tab. */
export async function openFileFromExplorer(page, relPath, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  const row = await revealInExplorer(page, relPath, { timeoutMs });
  await row.click();
  await waitForActiveEditor(page, relPath.split('/').pop(), { timeoutMs });
}

/** Right-clicks `relPath` in the Explorer and chooses the context-menu item labelled exactly `label` (or matching a RegExp). */
export async function explorerContextMenu(page, relPath, label, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  // Menus render in an open shadow root: playwright's CSS engine pierces it.
  const entry = page.locator('.monaco-menu .action-item:not(.disabled)').filter({
    has: page.locator('.action-label', {
      hasText: label instanceof RegExp ? label : new RegExp(`^\\s*${escapeRe(label)}\\s*$`),
    }),
  });
  const item = entry.locator('.action-label');
  // Right after load an extension's menu items may not be registered yet: close the menu and open it again.
  await until(
    `context-menu item "${label}"`,
    async () => {
      if (await visible(page, S.menu)) await page.keyboard.press('Escape');
      const row = await revealInExplorer(page, relPath, { timeoutMs });
      await row.click({ button: 'right' });
      await until('the Explorer context menu to open', () => visible(page, S.menu), { timeoutMs: 10_000 });
      return until(`"${label}" in the open menu`, async () => (await item.count()) > 0, { timeoutMs: 2000 }).then(
        () => true,
        () => false,
      );
    },
    {
      timeoutMs: 30_000,
      seen: async () =>
        JSON.stringify(
          (await page.locator('.monaco-menu .action-label').allTextContents()).map((t) => t.trim()).filter(Boolean),
        ),
    },
  );
  // A click right after the menu opened is sometimes swallowed (the menu stays open with the item
  // highlighted); hovering until the item is focused and pressing Enter is deterministic.
  await until(
    `context-menu item "${label}" to take focus`,
    async () => {
      await item.first().hover();
      return /\bfocused\b/.test((await entry.first().getAttribute('class')) ?? '');
    },
    { timeoutMs: 10_000 },
  );
  await page.keyboard.press('Enter');
  await until(`the context menu to close after choosing "${label}"`, async () => !(await visible(page, S.menu)), {
    timeoutMs: 10_000,
  });
}

// ------------------------------------------------------------------------------------------ notifications

function toastsWith(page, text) {
  return page.locator(S.toastMessages).filter({ hasText: text });
}

async function toastTexts(page) {
  return JSON.stringify((await page.locator(S.toastMessages).allTextContents()).map((t) => t.trim()));
}

/**
 * The visible notification toasts: [{ message, severity: 'error'|'warning'|'info', progress }] where
 * `progress` is true while the toast's progress bar runs (withProgress in the Notification location).
 */
export async function readNotifications(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.notifications-toasts .notification-toast .notification-list-item')].map((item) => {
      const icon = item.querySelector('.notification-list-item-icon')?.className ?? '';
      const bar = item.querySelector('.monaco-progress-container');
      return {
        message: (item.querySelector('.notification-list-item-message')?.textContent ?? '').trim(),
        severity: /codicon-error/.test(icon) ? 'error' : /codicon-warning/.test(icon) ? 'warning' : 'info',
        progress:
          !!bar &&
          /\b(active|infinite|discrete)\b/.test(bar.className) &&
          !/\bdone\b/.test(bar.className) &&
          bar.getBoundingClientRect().height > 0,
      };
    }),
  );
}

/** Waits for a notification toast containing `text` (string or RegExp). */
export async function waitForNotification(page, text, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  await until(
    `a notification containing ${JSON.stringify(String(text))}`,
    async () => (await toastsWith(page, text).count()) > 0,
    {
      timeoutMs,
      seen: () => toastTexts(page),
    },
  );
  return toastsWith(page, text).first();
}

/** Waits until no notification toast contains `text`. */
export async function waitForNotificationGone(page, text, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  await until(
    `the notification containing ${JSON.stringify(String(text))} to disappear`,
    async () => (await toastsWith(page, text).count()) === 0,
    {
      timeoutMs,
      seen: () => toastTexts(page),
    },
  );
}

// ------------------------------------------------------------------------------------------------ webviews

/**
 * Finds the frame holding a webview's content: webviews are an `iframe.webview` whose document holds
 * the `active-frame` iframe with the extension's HTML. Searches all frames (playwright lists nested and
 * out-of-process frames) for one whose text contains `text`.
 */
export async function findWebviewFrame(page, text, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  let seen = [];
  return until(
    `a webview whose content contains ${JSON.stringify(String(text))}`,
    async () => {
      seen = [];
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        const body = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
        seen.push(`${frame.name() || '?'}:${body.slice(0, 60).replace(/\s+/g, ' ')}`);
        if (text instanceof RegExp ? text.test(body) : body.includes(text)) return frame;
      }
      return undefined;
    },
    { timeoutMs, seen: async () => JSON.stringify(seen) },
  );
}

/** Clicks the link whose text matches `linkText` inside the webview containing `within` (default: the link text). */
export async function clickWebviewLink(page, linkText, { within, timeoutMs = DEFAULT_TIMEOUT } = {}) {
  const frame = await findWebviewFrame(page, within ?? linkText, { timeoutMs });
  const link = frame.locator('a').filter({ hasText: linkText }).first();
  await until(`link ${JSON.stringify(String(linkText))} in the webview`, async () => link.isVisible(), {
    timeoutMs,
    seen: async () => JSON.stringify(await frame.locator('a').allTextContents()),
  });
  const label = ((await link.textContent()) ?? '').trim();
  await link.click();
  return label;
}

// ------------------------------------------------------------------------------ quick fix, hover, views

/** The quick-fix menu's rows (actions and group headers): the title as shown (aria-labels add ", Quick Fix"). */
function actionLabels(rows) {
  return rows.map((r) => ({
    label: (r.querySelector('.title')?.textContent ?? r.getAttribute('aria-label') ?? '').trim(),
    focused: r.classList.contains('focused'),
    action: r.classList.contains('action'),
  }));
}

/** Opens the quick-fix menu (Ctrl+.) at the cursor; returns the labels of its actions. */
export async function openQuickFix(page, { expect, timeoutMs = DEFAULT_TIMEOUT } = {}) {
  let labels = [];
  await until(
    `the quick-fix menu${expect ? ` with ${expect}` : ''}`,
    async () => {
      if (!(await visible(page, S.actionWidget))) await page.keyboard.press('Control+.');
      const ok = await until('the quick-fix menu to open', () => visible(page, S.actionWidget), {
        timeoutMs: 3000,
      }).then(
        () => true,
        () => false,
      );
      if (!ok) return false;
      labels = (await page.locator(S.actionRows).evaluateAll(actionLabels)).map((r) => r.label).filter(Boolean);
      if (expect && !labels.some((l) => labelIs(l, expect))) {
        await page.keyboard.press('Escape');
        return false;
      }
      return true;
    },
    { timeoutMs, intervalMs: 500, seen: async () => JSON.stringify(labels) },
  );
  return labels;
}

/** Chooses the action `label` in the open quick-fix menu (focus it with the arrow keys, then Enter). */
export async function chooseQuickFix(page, label, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  await until(
    `quick-fix action ${label} to take focus`,
    async () => {
      const rows = await page.locator(S.actionRows).evaluateAll(actionLabels);
      const actions = rows.filter((r) => r.action);
      const focused = actions.findIndex((r) => r.focused);
      const target = actions.findIndex((r) => labelIs(r.label, label));
      if (target < 0) throw fatal(`no quick-fix action ${label}: ${JSON.stringify(rows)}`);
      if (focused === target) return true;
      await page.keyboard.press(focused > target ? 'ArrowUp' : 'ArrowDown');
      return false;
    },
    { timeoutMs: 10_000 },
  );
  await page.keyboard.press('Enter');
  await until('the quick-fix menu to close', async () => !(await visible(page, S.actionWidget)), {
    timeoutMs: timeoutMs,
  });
}

/**
 * Answers the open quick input: `pick` chooses the row `label` of a quick pick, `text` types `label` into an
 * input box (once the previous pick's rows are gone); then Enter.
 */
export async function answerQuickInput(page, kind, label, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  await until('a quick input to open', () => visible(page, S.quickInputBox), { timeoutMs });
  if (kind === 'text') {
    await until(
      'the quick input to become an input box',
      async () => (await page.locator(`${S.quickRows}:visible`).count()) === 0,
      { timeoutMs: 10_000 },
    );
    await page.locator(S.quickInputBox).fill(label);
  } else {
    let rows = [];
    await until(
      `the quick pick row ${label} to take focus`,
      async () => {
        rows = await quickRowLabels(page);
        const focused = rows.find((r) => r.focused);
        if (focused && labelIs(focused.label, label)) return true;
        const target = rows.find((r) => labelIs(r.label, label));
        if (target) await page.keyboard.press(focused && focused.index > target.index ? 'ArrowUp' : 'ArrowDown');
        return false;
      },
      { timeoutMs: 10_000, seen: async () => JSON.stringify(rows) },
    );
  }
  await page.keyboard.press('Enter');
}

/** The text of the visible editor hover, once it contains `text`. */
export async function readHover(page, text, { timeoutMs = DEFAULT_TIMEOUT } = {}) {
  let seen = '';
  await until(
    `an editor hover containing ${text}`,
    async () => {
      seen = (await page.locator(S.hover).allTextContents()).join(' | ');
      return labelIs(seen, text instanceof RegExp ? text : new RegExp(escapeRe(text)));
    },
    { timeoutMs, seen: async () => JSON.stringify(seen) },
  );
  return seen;
}

/** The rows of the view whose pane header is `title`, as their visible text (label, then description), in order. */
export async function viewRows(page, title) {
  return page.evaluate(
    ({ title, headers }) => {
      const header = [...document.querySelectorAll(headers)].find(
        (h) => (h.querySelector('h3.title')?.textContent ?? '').trim().toLowerCase() === title.toLowerCase(),
      );
      const pane = header?.closest('.pane');
      if (!pane) return null;
      const rows = [...pane.querySelectorAll('.monaco-list-row')].sort(
        (a, b) => Number(a.dataset.index) - Number(b.dataset.index),
      );
      return rows.map((r) =>
        [r.querySelector('.label-name')?.textContent, r.querySelector('.label-description')?.textContent]
          .filter(Boolean)
          .map((t) => t.trim())
          .join(' — '),
      );
    },
    { title, headers: S.paneHeaders },
  );
}

export const selectors = S;
