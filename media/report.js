// Report page script: turns clicks on file:line links and the toolbar buttons into messages for the
// extension, and keeps the panel's state so VS Code can restore it after a reload.
(function () {
  const vscode = acquireVsCodeApi();
  const state = JSON.parse(document.body.dataset.state || '{}');
  vscode.setState(state);

  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a.loc') : null;
    if (!link) return;
    event.preventDefault();
    vscode.postMessage({ type: 'open', file: link.dataset.file, line: Number(link.dataset.line) });
  });
  document.getElementById('open-markdown').addEventListener('click', () => vscode.postMessage({ type: 'openMarkdown' }));
  document.getElementById('rerun').addEventListener('click', () => vscode.postMessage({ type: 'rerun' }));
})();
