// Runs a mocha suite inside the VS Code extension host and writes the result file the e2e runner
// waits for. The extension host exits 0 even when run() throws (the error only reaches the browser
// console), so the file at $SKEPTIC_E2E_RESULT is the only trustworthy outcome:
//   { passed, failed, pending, failures: [{ title, error }], tests: [{ title, state, ms }], durationMs }
// Use from an extensionTestsPath entry:
//   exports.run = () => require('<repo>/test/e2e/exthost-mocha.cjs').runMochaSuite({ files: [...] });
// The same mocha files can be run by @vscode/test-electron on machines that can download VS Code.
const fs = require('fs');

function writeResult(result) {
  const file = process.env.SKEPTIC_E2E_RESULT;
  if (!file) {
    console.warn('exthost-mocha: SKEPTIC_E2E_RESULT is not set; result not written');
    return;
  }
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, `${JSON.stringify(result, null, 2)}\n`);
  fs.renameSync(tmp, file); // atomic: the runner never reads half a file
}

async function runMochaSuite({ files, timeoutMs = 60_000, ui = 'bdd', grep } = {}) {
  const started = Date.now();
  const result = { passed: 0, failed: 0, pending: 0, failures: [], tests: [] };
  try {
    const Mocha = require('mocha');
    const mocha = new Mocha({ ui, timeout: timeoutMs, color: false, reporter: 'spec', grep });
    for (const f of files) mocha.addFile(f);
    await new Promise((resolve, reject) => {
      let runner;
      try {
        runner = mocha.run(() => resolve());
      } catch (err) {
        reject(err);
        return;
      }
      runner.on('pass', (t) => {
        result.passed++;
        result.tests.push({ title: t.fullTitle(), state: 'passed', ms: t.duration });
      });
      runner.on('fail', (t, err) => {
        result.failed++;
        const error = String((err && (err.stack || err.message)) || err);
        result.failures.push({ title: t.fullTitle(), error });
        result.tests.push({ title: t.fullTitle(), state: 'failed', ms: t.duration });
      });
      runner.on('pending', (t) => {
        result.pending++;
        result.tests.push({ title: t.fullTitle(), state: 'pending' });
      });
    });
  } catch (err) {
    result.failed++;
    result.failures.push({
      title: 'loading or running the extension-host suite',
      error: String((err && err.stack) || err),
    });
  }
  result.durationMs = Date.now() - started;
  writeResult(result);
  if (result.failed > 0) throw new Error(`${result.failed} extension-host test(s) failed`);
}

module.exports = { runMochaSuite, writeResult };
