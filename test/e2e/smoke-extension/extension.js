// Skeptic E2E Smoke: a throwaway extension that exercises what the real-VS-Code harness must see:
// a palette/Explorer command, a progress notification, a diagnostic, and a webview with a file:line link.
const vscode = require('vscode');
const crypto = require('crypto');
const path = require('path');

let collection;
let panel;

function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function reportHtml(webview, fileName) {
  const nonce = crypto.randomBytes(16).toString('base64');
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
  const name = escapeHtml(fileName);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<style nonce="${nonce}">body { color: var(--vscode-foreground); font-family: var(--vscode-font-family); } a { color: var(--vscode-textLink-foreground); }</style>
<title>Smoke Report</title></head>
<body>
<h1>Smoke Report</h1>
<p>One finding: <a href="#" class="loc" data-line="3">${name}:3</a> - look at line 3 (smoke).</p>
<script nonce="${nonce}">
  const vscode = acquireVsCodeApi();
  for (const a of document.querySelectorAll('a.loc')) {
    a.addEventListener('click', (e) => { e.preventDefault(); vscode.postMessage({ type: 'open', line: Number(a.dataset.line) }); });
  }
</script>
</body></html>`;
}

let reportTarget;

function showReport(target) {
  reportTarget = target;
  if (!panel) {
    panel = vscode.window.createWebviewPanel(
      'skepticSmoke.report',
      'Smoke Report',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        localResourceRoots: [],
      },
    );
    panel.onDidDispose(() => {
      panel = undefined;
    });
    panel.webview.onDidReceiveMessage(async (msg) => {
      if (msg && msg.type === 'open' && Number.isInteger(msg.line) && reportTarget) {
        const pos = new vscode.Position(msg.line - 1, 0);
        await vscode.window.showTextDocument(reportTarget, {
          viewColumn: vscode.ViewColumn.One,
          selection: new vscode.Range(pos, pos),
        });
      }
    });
  } else {
    panel.reveal(vscode.ViewColumn.Beside, true);
  }
  panel.webview.html = reportHtml(panel.webview, path.basename(target.path));
}

function activate(context) {
  collection = vscode.languages.createDiagnosticCollection('skeptic-smoke');
  context.subscriptions.push(
    collection,
    vscode.commands.registerCommand('skepticSmoke.hello', async (uri) => {
      const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
      if (!target) {
        void vscode.window.showErrorMessage('Skeptic E2E Smoke: open a file first.');
        return undefined;
      }
      const doc = await vscode.workspace.openTextDocument(target);
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Skeptic E2E Smoke', cancellable: false },
        async (progress) => {
          progress.report({ message: `checking ${path.basename(target.path)}` });
          await delay(1500); // long enough for the UI suite to see the toast come and go
        },
      );
      const d = new vscode.Diagnostic(
        new vscode.Range(0, 0, 0, Math.max(1, doc.lineAt(0).text.length)),
        'Smoke finding: hello from the e2e harness',
        vscode.DiagnosticSeverity.Warning,
      );
      d.source = 'SkepticSmoke';
      d.code = 'SMOKE1';
      collection.set(target, [d]);
      showReport(target);
      return { uri: target.toString(), diagnostics: 1 };
    }),
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
