import assert from 'node:assert/strict';
import { renderReportBody, renderReportPage } from '../../src/ui/reportPage';

const assets = {
  cspSource: 'vscode-resource:',
  nonce: 'abc123',
  styleUri: 'style.css',
  scriptUri: 'report.js',
  state: { reportPath: '/w/r.md', cwd: '/w' },
};

describe('report page', () => {
  it('sets a strict CSP with the nonce and no inline or remote sources', () => {
    const html = renderReportPage('# T', assets);
    const csp = /content="([^"]+)"/.exec(html)![1]!;
    assert.match(csp, /^default-src 'none'; /);
    assert.match(csp, /script-src 'nonce-abc123'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    assert.match(html, /<script nonce="abc123" src="report\.js"><\/script>/);
  });

  it('makes every file:line code span a link, and leaves other code alone', () => {
    const body = renderReportBody('1. `src/a b.ts:17` - fix (why)\n\nuse `x.y()` here');
    assert.match(
      body,
      /<a class="loc" href="#" data-file="src\/a b\.ts" data-line="17"><code>src\/a b\.ts:17<\/code><\/a>/,
    );
    assert.match(body, /<code>x\.y\(\)<\/code>/);
  });

  it('never renders HTML or follows links from the report text', () => {
    const body = renderReportBody(
      '<script>alert(1)</script> <img src=x onerror=alert(1)> [click](https://evil.example) `a.ts:1"><b>`',
    );
    assert.doesNotMatch(body, /<script>|<img|href="https/);
    assert.match(body, /&lt;script&gt;/);
  });

  it('carries the panel state escaped for an attribute', () => {
    const html = renderReportPage('x', { ...assets, state: { reportPath: '/w/"quoted".md', cwd: '/w' } });
    assert.match(html, /data-state="\{&quot;reportPath&quot;:&quot;\/w\/\\&quot;quoted\\&quot;\.md&quot;/);
  });
});
