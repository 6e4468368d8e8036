import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlanJson } from '../../src/report/planJson';
import { QUICK_FROM_FILES } from '../../src/app/inventories';
import { runCli } from '../helpers/cli';
import { put } from '../helpers/tree';

/** Two top-level functions and a class with two methods: four for the parser and for the quick finder alike. */
const source = (i: number) =>
  `export function load${i}(x: number): number {\n  return x + ${i};\n}\n\nexport const save${i} = (y: string) => {\n  return y.trim();\n};\n\n` +
  `export class Store${i} {\n  get(key: string): string {\n    return key;\n  }\n\n  put(key: string): void {\n    void key;\n  }\n}\n`;

describe('plan of a large scope never parsed: functions counted by the quick finder, a small scope parsed', function () {
  this.timeout(180_000);

  it('counts the files quickly above the threshold, says so, keeps the count, and never passes it off as a parse', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-plan-quick-'));
    for (let i = 0; i < QUICK_FROM_FILES; i++) await put(cwd, `src/m${Math.floor(i / 100)}/f${i}.ts`, source(i));
    // Markdown has no grammar: the regex fallback reads it at once, and it is no file the quick finder counts.
    await put(cwd, 'src/NOTES.md', '# Notes\n\nNothing to run here.\n');
    const env = { XDG_CACHE_HOME: await mkdtemp(join(tmpdir(), 'skeptic-plan-quick-home-')) };
    const plan = async (...args: string[]) => {
      const run = await runCli(['plan', ...args, '--json'], { cwd, env });
      assert.equal(run.code, 0, run.stderr);
      return PlanJson.parse(JSON.parse(run.stdout));
    };

    const cold = await plan('src');
    assert.equal(cold.estimate.quick_counted_files, QUICK_FROM_FILES);
    const sources = cold.files.filter((f) => f.path.endsWith('.ts'));
    assert.equal(sources.length, QUICK_FROM_FILES);
    assert.ok(sources.every((f) => f.counted_quickly && f.parser === 'regex'));
    const notes = cold.files.find((f) => f.path === 'src/NOTES.md');
    assert.ok(notes, 'the markdown file is under review');
    assert.equal(notes.counted_quickly, undefined);
    assert.deepEqual(
      cold.files.find((f) => f.path === 'src/m0/f7.ts')!.functions.map((f) => f.name),
      ['load7', 'save7', 'get', 'put'],
    );
    assert.equal(cold.estimate.functions, 4 * QUICK_FROM_FILES);
    const text = await runCli(['plan', 'src'], { cwd, env });
    assert.match(
      text.stdout,
      new RegExp(`^Functions: ${QUICK_FROM_FILES} files never parsed counted by a quick line match`, 'm'),
    );

    // The next plan reads the kept counts: the same plan.
    assert.deepEqual(await plan('src'), cold);

    // One folder of the same files is below the threshold: parsed, whatever the earlier plan kept.
    const small = await plan('src/m0');
    assert.equal(small.estimate.quick_counted_files, 0);
    assert.ok(small.files.every((f) => f.parser === 'syntax' && !f.counted_quickly));
    assert.deepEqual(
      small.files.find((f) => f.path === 'src/m0/f7.ts')!.functions.map((f) => f.name),
      ['load7', 'save7', 'Store7.get', 'Store7.put'],
    );
  });
});
