/**
 * The report as a webview page: markdown rendered with raw HTML disabled, every `file:line` code span made
 * a link the page script turns into "open that place", under a strict CSP (no inline code, no remote content).
 */
import MarkdownIt from 'markdown-it';

export interface PageAssets {
  /** The webview's `cspSource`, for local resources. */
  cspSource: string;
  nonce: string;
  styleUri: string;
  scriptUri: string;
  /** Restored by the page script (vscode.setState) so the panel survives a window reload. */
  state: object;
}

const LOCATION = /^(.+?):(\d+)$/;

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
const plainCode = md.renderer.rules.code_inline!;
md.renderer.rules.code_inline = (tokens, idx, options, env, self) => {
  const content = tokens[idx]!.content;
  const m = LOCATION.exec(content);
  if (!m) return plainCode(tokens, idx, options, env, self);
  const esc = md.utils.escapeHtml;
  return `<a class="loc" href="#" data-file="${esc(m[1]!)}" data-line="${m[2]}"><code>${esc(content)}</code></a>`;
};
// Links in a report come from model text: shown, never followed.
md.validateLink = () => false;

export function renderReportBody(markdown: string): string {
  return md.render(markdown);
}

export function renderReportPage(markdown: string, assets: PageAssets): string {
  const csp = [
    `default-src 'none'`,
    `style-src ${assets.cspSource}`,
    `img-src ${assets.cspSource}`,
    `script-src 'nonce-${assets.nonce}'`,
  ].join('; ');
  const state = md.utils.escapeHtml(JSON.stringify(assets.state));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${assets.styleUri}">
<title>Skeptic report</title>
</head>
<body data-state="${state}">
<nav class="toolbar">
<button id="open-markdown" type="button">Open Markdown</button>
<button id="rerun" type="button">Re-run Review</button>
</nav>
<main>${renderReportBody(markdown)}</main>
<script nonce="${assets.nonce}" src="${assets.scriptUri}"></script>
</body>
</html>`;
}
