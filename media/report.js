// Report page script: turns clicks on file:line links and the toolbar buttons into messages for the
// extension, marks the finding the panel was opened to reveal, and keeps the panel's state so VS Code can restore it after a reload.
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
  // "Show in Report" from the editor: bring the finding's line into view and mark it.
  function reveal(m) {
    if (!m || typeof m.file !== 'string' || typeof m.line !== 'number') return;
    const links = [...document.querySelectorAll('a.loc')].filter((a) => a.dataset.file === m.file && Number(a.dataset.line) === m.line);
    for (const old of document.querySelectorAll('.revealed')) old.classList.remove('revealed');
    const item = links[0] && (links[0].closest('li, p') || links[0]);
    if (!item) return;
    item.classList.add('revealed');
    item.scrollIntoView({ block: 'center' });
  }
  reveal(state.reveal);
  document.getElementById('open-markdown').addEventListener('click', () => vscode.postMessage({ type: 'openMarkdown' }));
  document.getElementById('rerun').addEventListener('click', () => vscode.postMessage({ type: 'rerun' }));
})();
