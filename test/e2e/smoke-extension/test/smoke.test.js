// Mocha (bdd) tests run inside the real extension host.
const assert = require('assert');
const vscode = require('vscode');

describe('Skeptic E2E smoke (extension host)', () => {
  before(async () => {
    // Contributed commands are registered on activation; activate as the first command call would.
    await vscode.extensions.getExtension('skeptic-dev.skeptic-e2e-smoke').activate();
  });

  it('runs as the extension development host, with the harness environment', () => {
    assert.ok(process.env.SKEPTIC_E2E_RESULT, 'SKEPTIC_E2E_RESULT is set');
    const ext = vscode.extensions.getExtension('skeptic-dev.skeptic-e2e-smoke');
    assert.ok(ext, 'the smoke extension is loaded');
    assert.ok(
      vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders.length === 1,
      'one workspace folder is open',
    );
  });

  it('registers its command', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('skepticSmoke.hello'), 'skepticSmoke.hello is registered');
  });

  it('puts a SkepticSmoke diagnostic at line 1, column 1 of the open file', async () => {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'demo', 'src', 'hello.ts');
    await vscode.window.showTextDocument(uri);
    const out = await vscode.commands.executeCommand('skepticSmoke.hello');
    assert.strictEqual(out && out.diagnostics, 1);
    const diags = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'SkepticSmoke');
    assert.strictEqual(diags.length, 1, 'one SkepticSmoke diagnostic');
    assert.deepStrictEqual([diags[0].range.start.line, diags[0].range.start.character], [0, 0]);
    assert.strictEqual(diags[0].severity, vscode.DiagnosticSeverity.Warning);
    assert.strictEqual(diags[0].code, 'SMOKE1');
  });

  it('sees the fake Messages API through user settings and the environment', async function () {
    const url = process.env.ANTHROPIC_BASE_URL;
    if (!url) this.skip();
    assert.strictEqual(process.env.ANTHROPIC_API_KEY, 'e2e-key');
    assert.strictEqual(vscode.workspace.getConfiguration('skeptic').get('baseUrl'), url);
    const res = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.ok(res.status >= 200 && res.status < 600, `the fake server answered (HTTP ${res.status})`);
  });
});
