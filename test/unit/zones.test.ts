import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';

// Tests are bundled to out/test/<dir>/; the repository root is three levels up.
const REPO = join(__dirname, '../../..');

interface Room {
  holds: string[];
  may: string[];
}
interface Zones {
  ROOMS: Record<string, Room>;
  ONLY: Record<string, string[]>;
  PURE: string[];
  NODE_IO: string[];
  roomOf(path: string): string | undefined;
}
/** The table lint checks by (eslint/zones.mjs, an ES module ESLint loads itself). */
let zones: Zones;
before(async () => {
  zones = (await import(pathToFileURL(join(REPO, 'eslint/zones.mjs')).href)) as Zones;
});

/**
 * ARCHITECTURE.md's table: each folder or file its first column names (a parenthesis aside) → the backquoted
 * paths, and `vscode`, its second column names. Anything else in that column is refused, so that no rule
 * hides in prose the test would not read.
 */
function documented(): Map<string, string[]> {
  const text = readFileSync(join(REPO, 'ARCHITECTURE.md'), 'utf8');
  const table = /^\| Folder \| May import[^\n]*\n\|[-|]+\|\n((?:\|[^\n]*\n)+)/m.exec(text);
  assert.ok(table, 'ARCHITECTURE.md has its table "| Folder | May import … |"');
  const ticks = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const rows = new Map<string, string[]>();
  for (const line of table[1]!.trimEnd().split('\n')) {
    const [folder = '', may = ''] = line
      .split('|')
      .slice(1, 3)
      .map((c) => c.trim());
    const rest = may.replace(/`[^`]+`/g, '').replace(/[,\s]/g, '');
    assert.ok(
      rest === '' || may === 'nothing of ours',
      `ARCHITECTURE.md, row ${folder}: "May import" names only backquoted paths (or "nothing of ours"), not: ${may}`,
    );
    for (const held of ticks(folder.replace(/\([^)]*\)/g, ''))) {
      assert.ok(!rows.has(held), `ARCHITECTURE.md names ${held} in two rows`);
      rows.set(held, ticks(may).sort());
    }
  }
  return rows;
}

/**
 * ROOMS in the same words: each path a room holds → what it may import (a room's paths, a door's file, and a
 * module ONLY lets it have).
 */
function linted(): Map<string, string[]> {
  const { ROOMS, ONLY } = zones;
  const rows = new Map<string, string[]>();
  for (const [name, room] of Object.entries(ROOMS)) {
    const external = Object.keys(ONLY).filter((m) => ONLY[m]!.includes(name));
    const may = [...room.may.flatMap((m) => ROOMS[m]?.holds ?? [`${m}.ts`]), ...external].sort();
    for (const held of room.holds) rows.set(held, may);
  }
  return rows;
}

/** A planted file: one per path a room holds (a folder gets a new file in it; a file is planted as itself). */
interface Plant {
  name: string;
  room: string;
  file: string;
}
const plants = (): Plant[] =>
  Object.entries(zones.ROOMS).flatMap(([room, { holds }]) =>
    holds.map((held) => ({ name: held, room, file: held.endsWith('/') ? `src/${held}planted.ts` : `src/${held}` })),
  );

/** What a planted import names: a real module of every room (none of its doors), each door, and vscode. */
interface Target {
  name: string;
  room?: string;
  module?: string;
  path: string;
}
function targets(): Target[] {
  const { ROOMS } = zones;
  const doors = new Set(Object.values(ROOMS).flatMap((r) => r.may.filter((m) => !ROOMS[m])));
  const rooms = Object.entries(ROOMS).map(([room, { holds }]): Target => {
    const held = holds[0]!;
    if (!held.endsWith('/')) {
      const module = held.replace(/\.ts$/, '');
      return { name: room, room, module, path: `src/${module}` };
    }
    const file = readdirSync(join(REPO, 'src', held))
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => `${held}${f.replace(/\.ts$/, '')}`)
      .find((m) => !doors.has(m));
    assert.ok(file, `a module of src/${held} that is not a door`);
    return { name: room, room, module: file, path: `src/${file}` };
  });
  const doorTargets = [...doors].map((door): Target => ({
    name: door,
    room: zones.roomOf(`${door}.ts`)!,
    module: door,
    path: `src/${door.replace(/\/index$/, '')}`,
  }));
  return [...rooms, ...doorTargets, { name: 'vscode', path: 'vscode' }];
}

/** Whether the table lets `plant` import `target`: its own room, a room or door it names, vscode where the doc says. */
function allowed(plant: Plant, target: Target, vscode: Set<string>): boolean {
  if (!target.room) return vscode.has(plant.name);
  const { may } = zones.ROOMS[plant.room]!;
  return target.room === plant.room || may.includes(target.room) || may.includes(target.module!);
}

/**
 * The walls that matter most, stated here apart from both tables so that the planted verdicts cannot follow
 * a table that moved one: whether the file may import the module, however both tables are edited.
 */
const WALLS: [file: string, imports: string, allowed: boolean][] = [
  ['src/model/planted.ts', 'src/io/git', false],
  ['src/io/planted.ts', 'src/scope/inventory', false],
  ['src/scope/planted.ts', 'src/engine/runner', false],
  ['src/report/planted.ts', 'src/engine/runner', false],
  ['src/report/planted.ts', 'src/scope/inventory', false],
  ['src/engine/planted.ts', 'src/engine/staged', false],
  ['src/engine/planted.ts', 'src/model/scope', true],
  ['src/engine/staged/planted.ts', 'src/engine/lenses', false],
  ['src/engine/lenses/planted.ts', 'src/engine/staged/pipeline', false],
  ['src/app/planted.ts', 'src/engine/staged/pipeline', false],
  ['src/app/planted.ts', 'src/engine/staged', true],
  ['src/app/planted.ts', 'src/eval/run', false],
  ['src/app/planted.ts', 'vscode', false],
  ['src/cli/planted.ts', 'src/scope/inventory', false],
  ['src/cli/planted.ts', 'src/app/runJob', true],
  ['src/worker.ts', 'src/engine/runner', false],
  ['src/ui/planted.ts', 'src/app/runJob', false],
  ['src/ui/planted.ts', 'src/app/protocol', true],
  ['src/ui/planted.ts', 'src/model/scope', true],
  ['src/ui/planted.ts', 'vscode', true],
  ['src/boot/planted.ts', 'src/app/runJob', false],
  ['src/engine/planted.ts', 'vscode', false],
  ['src/worker.ts', 'vscode', false],
  ['src/model/planted.ts', 'node:fs', false],
  ['src/report/planted.ts', 'node:child_process', false],
  ['src/io/planted.ts', 'node:fs', true],
  ['src/engine/planted.ts', 'node:fs', true],
];

type Kind = 'import' | 'import type' | 'export from' | 'import()' | 'require()';

function statement(kind: Kind, spec: string, i: number): string {
  switch (kind) {
    case 'import':
      return `import * as m${i} from '${spec}';\nexport const u${i} = m${i};`;
    case 'import type':
      return `import type * as t${i} from '${spec}';\nexport type U${i} = typeof t${i};`;
    case 'export from':
      return `export * as e${i} from '${spec}';`;
    case 'import()':
      return `export const d${i} = () => import('${spec}');`;
    case 'require()':
      return `export const r${i} = (): unknown => require('${spec}');`;
  }
}

function specifier(fromFile: string, target: string): string {
  if (!target.startsWith('src/')) return target;
  const rel = relative(dirname(join(REPO, fromFile)), join(REPO, target))
    .split('\\')
    .join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/**
 * Lint's verdict on a planted file (never written: linted as text at its path), with the real config less
 * type information (a planted file is in no TypeScript program): the messages of the layering rules.
 */
const eslint = new ESLint({
  cwd: REPO,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});
async function lint(file: string, text: string): Promise<ESLint.LintResult['messages']> {
  const [result] = await eslint.lintText(text, { filePath: join(REPO, file) });
  const messages = result!.messages;
  const broken = messages.find((m) => m.fatal);
  assert.equal(broken, undefined, broken?.message);
  return messages.filter((m) => m.ruleId === 'skeptic/zones' || m.ruleId === 'no-restricted-imports');
}

/** Each target planted in the plant's file, one statement each: which of them lint refuses. */
async function refused(plant: Plant, columns: Target[], kind: Kind): Promise<Set<string>> {
  const lines: string[] = [];
  const lineOf = new Map<number, string>();
  columns.forEach((column, i) => {
    lineOf.set(lines.length + 1, column.name);
    lines.push(...statement(kind, specifier(plant.file, column.path), i).split('\n'));
  });
  const messages = await lint(plant.file, `${lines.join('\n')}\n`);
  return new Set(messages.map((m) => lineOf.get(m.line) ?? `line ${m.line}: ${m.message}`));
}

describe('lint zones: every import under src/ is judged by the rooms of ARCHITECTURE.md, by path', function () {
  this.timeout(120_000);

  it("ARCHITECTURE.md's table says what eslint/zones.mjs checks", () => {
    const doc = documented();
    const sorted = (m: Map<string, string[]>) => Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)));
    assert.deepEqual(sorted(doc), sorted(linted()));
  });

  it('refuses each import the table forbids and allows the rest, static and type-only alike', async () => {
    const vscode = new Set([...documented()].filter(([, may]) => may.includes('vscode')).map(([held]) => held));
    const all = targets();
    const table: Record<string, Record<string, string>> = {};
    const failures: string[] = [];
    for (const plant of plants()) {
      const columns = all.filter((t) => t.path !== plant.file.replace(/\.ts$/, ''));
      for (const kind of ['import', 'import type'] as const) {
        const got = await refused(plant, columns, kind);
        for (const column of columns) {
          const verdict = got.has(column.name) ? '✗' : '✓';
          const cell = ((table[plant.name] ??= {})[column.name] ??= '');
          table[plant.name][column.name] = cell === '' || cell === verdict ? verdict : `${cell}/${verdict}`;
          if (got.has(column.name) === allowed(plant, column, vscode))
            failures.push(`${kind} ${plant.name} → ${column.name}: lint says ${verdict}`);
        }
        for (const extra of [...got].filter((g) => !columns.some((c) => c.name === g)))
          failures.push(`${kind} ${plant.name}: ${extra}`);
      }
    }
    // SKEPTIC_ZONES_TABLE=file.md: the verdicts as a markdown table (rooms × rooms), for a note.
    if (process.env.SKEPTIC_ZONES_TABLE) writeFileSync(process.env.SKEPTIC_ZONES_TABLE, markdown(table, all));
    assert.deepEqual(failures, []);
  });

  it('holds the key walls, whatever the two tables say', async () => {
    const failures: string[] = [];
    for (const [file, target, allow] of WALLS)
      for (const kind of ['import', 'import type'] as const) {
        const messages = await lint(file, `${statement(kind, specifier(file, target), 0)}\n`);
        if ((messages.length === 0) !== allow)
          failures.push(`${kind} ${file} → ${target}: lint says ${allow ? '✗' : '✓'}`);
      }
    assert.deepEqual(failures, []);
  });

  it("allows a ./report file inside report/, and ui/'s four doors into app/", async () => {
    assert.deepEqual(await lint('src/report/planted.ts', "export * from './report';\n"), []);
    for (const door of ['protocol', 'contributions', 'choices', 'connection'])
      assert.deepEqual(await lint('src/ui/planted.ts', `export * from '../app/${door}';\n`), [], door);
  });

  it('refuses report/ reaching the engine by import(), require(), export … from or a type import()', async () => {
    for (const kind of ['import()', 'require()', 'export from'] as const) {
      const messages = await lint('src/report/planted.ts', `${statement(kind, '../engine/runner', 0)}\n`);
      assert.equal(messages.length, 1, kind);
      assert.match(messages[0]!.message, /^report\/ may import model\/, io\/ .*not src\/engine\/runner\.ts$/, kind);
    }
    const typed = await lint('src/report/planted.ts', "export type R = typeof import('../engine/runner');\n");
    assert.equal(typed.length, 1);
    const unnamed = await lint('src/report/planted.ts', 'export const load = (p: string) => import(p);\n');
    assert.match(unnamed[0]!.message, /names its module with a plain string/);
  });

  it("refuses 'vscode' outside the host and node's I/O in the pure rooms, in every form", async () => {
    const io = ['node:fs', 'fs/promises', 'child_process', 'node:net', 'https'];
    assert.ok(
      io.every((m) => zones.NODE_IO.includes(m.replace(/^node:/, '').replace(/\/.*/, ''))),
      'the probes are modules NODE_IO lists',
    );
    const failures: string[] = [];
    for (const plant of plants())
      for (const kind of ['import', 'import type', 'import()', 'require()'] as const)
        for (const spec of ['vscode', ...io]) {
          const messages = await lint(plant.file, `${statement(kind, spec, 0)}\n`);
          const allow = spec === 'vscode' ? zones.ONLY.vscode!.includes(plant.room) : !zones.PURE.includes(plant.room);
          if ((messages.length === 0) !== allow)
            failures.push(`${kind} '${spec}' in ${plant.name}: ${messages.length}`);
        }
    assert.deepEqual(failures, []);
    assert.deepEqual([...zones.PURE].sort(), ['model', 'report'], 'model/ and report/ do no I/O of their own');
  });

  it('refuses a file under src/ in no room, and an import of one', async () => {
    const [alone] = await lint('src/newTopLevel.ts', 'export const x = 1;\n');
    assert.match(alone!.message, /^src\/newTopLevel\.ts is in no room/);
    const [reached] = await lint('src/app/planted.ts', "export * from '../newTopLevel';\n");
    assert.match(reached!.message, /^src\/newTopLevel is in no room/);
    const [outside] = await lint('src/app/planted.ts', "export * from '../../test/helpers/cli';\n");
    assert.match(outside!.message, /imports nothing outside it but prompts\/, package\.json: not test\/helpers\/cli/);
  });
});

function markdown(table: Record<string, Record<string, string>>, targets: Target[]): string {
  const columns = targets.map((t) => t.name);
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    row(['from \\ to', ...columns]),
    row(['---', ...columns.map(() => ':-:')]),
    ...Object.entries(table).map(([from, cells]) => row([from, ...columns.map((c) => cells[c] ?? '·')])),
    '',
  ].join('\n');
}
