// Tries Skeptic end to end without an API key: starts the fake Messages API with the shop scenario,
// reviews a copy of the shop fixture through the real CLI, and prints where the report went.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'skeptic-demo-'));
cpSync(join(root, 'test/fixtures/shop'), join(work, 'shop'), { recursive: true });

const fake = spawn(
  process.execPath,
  [join(root, 'dist/fake-anthropic.js'), '--port', '0', '--scenario', join(root, 'test/fixtures/shop.scenario.json')],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const url = await new Promise((resolve, reject) => {
  fake.stdout.on('data', (d) => {
    const m = /listening on (http:\/\/\S+)/.exec(String(d));
    if (m) resolve(m[1]);
  });
  fake.on('exit', (code) => reject(new Error(`fake server exited with ${code}`)));
});

const review = spawn(process.execPath, [join(root, 'dist/cli.js'), 'review', 'shop', '--json', 'result.json'], {
  cwd: work,
  stdio: 'inherit',
  env: { ...process.env, ANTHROPIC_API_KEY: 'demo-key', ANTHROPIC_BASE_URL: url },
});
const code = await new Promise((resolve) => review.on('exit', resolve));
fake.kill();
console.log(`\nDemo workspace: ${work} (report and result.json are there)`);
process.exit(code ?? 1);
