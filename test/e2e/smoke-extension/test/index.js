// Extension-host test entry for the smoke extension: loaded by VS Code through the `payload`
// extensionTestsPath; run() must resolve/reject when done. Results go to $SKEPTIC_E2E_RESULT.
const path = require('path');
const { runMochaSuite } = require('../../exthost-mocha.cjs');

exports.run = () => runMochaSuite({ files: [path.join(__dirname, 'smoke.test.js')], timeoutMs: 30_000 });
