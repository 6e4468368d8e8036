/**
 * Function inventories found on worker threads (src/scope/syntax/parsePool.ts) are the finder's own, a
 * worker that fails hands its files back to be parsed in the process, and the pool never holds a process open.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { functionInventory } from '../../src/scope/syntax/finder';
import { ParsePool } from '../../src/scope/syntax/parsePool';
import { REPO, runCli } from '../helpers/cli';
import { put } from '../helpers/tree';

/** The worker script the build ships (npm test builds dist/ before it runs the tests). */
const PARSER = join(REPO, 'dist/parser.js');

const FILES: Array<[string, string]> = [
  ['src/cart.ts', 'export class Cart {\n  add(n: number) {\n    return n;\n  }\n}\nexport const total = () => 1;\n'],
  ['pkg/util.py', 'class A:\n    def f(self):\n        return 1\n\ndef g():\n    pass\n'],
  ['include/stack.hpp', 'class S {\n public:\n  int top() { return 1; }\n};\nint free_fn() { return 2; }\n'],
  ['lib/core.kt', 'fun main() {\n  println("hi")\n}\n'],
  ['notes.txt', 'plain text\n'],
];

async function scriptOf(code: string): Promise<{ path: string; done: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'skeptic-parse-pool-'));
  const path = join(dir, 'worker.js');
  await writeFile(path, code);
  return { path, done: () => rm(dir, { recursive: true, force: true }) };
}

describe('scope/syntax/parsePool', function () {
  // Each worker compiles the grammars it meets.
  this.timeout(60_000);

  it('finds on worker threads exactly what the finder finds here, file by file', async () => {
    const pool = new ParsePool(2, PARSER);
    const pooled = await Promise.all(FILES.map(([path, text]) => pool.parse(path, text)));
    const here = await Promise.all(FILES.map(([path, text]) => functionInventory(path, text)));
    assert.deepEqual(pooled, here);
    assert.ok(pooled[2]?.functions.some((f) => f.qualified_name === 'S.top' && f.visibility === 'public'));
    assert.equal(pooled[4], null, 'a file no finder reads has no inventory');
  });

  it('starts no thread for a scope without code, and one once a file a grammar reads comes', async () => {
    const pool = new ParsePool(2, PARSER);
    const noCode = FILES.filter(([path]) => /\.(kt|txt)$/.test(path));
    const found = await Promise.all(noCode.map(([path, text]) => pool.parse(path, text)));
    assert.deepEqual(found, await Promise.all(noCode.map(([path, text]) => functionInventory(path, text))));
    assert.equal(pool.threads, 0);
    await pool.parse(FILES[0]![0], FILES[0]![1]);
    assert.equal(pool.threads, 1);
  });

  it('a worker that dies, or answers what was not asked, hands its files back to be parsed here', async () => {
    const dies = await scriptOf("require('node:worker_threads').parentPort.on('message', () => process.exit(7));");
    const babbles = await scriptOf(
      "const { parentPort } = require('node:worker_threads'); parentPort.on('message', () => parentPort.postMessage({ id: 'x' }));",
    );
    try {
      const here = await Promise.all(FILES.map(([path, text]) => functionInventory(path, text)));
      for (const script of [dies.path, babbles.path]) {
        const pool = new ParsePool(2, script);
        assert.deepEqual(await Promise.all(FILES.map(([path, text]) => pool.parse(path, text))), here, script);
        // And every file after.
        assert.deepEqual(await pool.parse(FILES[0]![0], FILES[0]![1]), here[0]);
      }
    } finally {
      await dies.done();
      await babbles.done();
    }
  });

  it('without the worker script, parses here', async () => {
    const pool = new ParsePool(2, join(tmpdir(), 'no-such-parser.js'));
    assert.deepEqual(await pool.parse(FILES[0]![0], FILES[0]![1]), await functionInventory(FILES[0]![0], FILES[0]![1]));
  });

  it('`skeptic plan` of a large scope parses on the pool, lists what the finder finds, and exits on its own', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-parse-pool-tree-'));
    try {
      // Enough files for the pool (app/inventories.ts), none the same.
      const files = Array.from({ length: 80 }, (_, i) => [
        `src/m${i}.ts`,
        `export function f${i}(x: number) {\n  return x + ${i};\n}\nclass C${i} {\n  m() {\n    return ${i};\n  }\n}\n`,
      ]);
      for (const [path, text] of files) await put(cwd, path!, text);
      // Exits by itself: a worker left holding the process would end this test at its timeout.
      const run = await runCli(['plan', '--json', '.'], { cwd, env: { GIT_CEILING_DIRECTORIES: tmpdir() } });
      assert.equal(run.code, 0, run.stderr);
      const plan = JSON.parse(run.stdout) as { files: Array<{ path: string; functions: Array<{ name: string }> }> };
      const listed = Object.fromEntries(plan.files.map((f) => [f.path, f.functions.map((fn) => fn.name)]));
      for (const [path, text] of files) {
        const here = (await functionInventory(path!, text!))!.functions.map((f) => f.qualified_name);
        assert.deepEqual(listed[path!], here, path);
      }
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
