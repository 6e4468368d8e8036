import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ESLint } from 'eslint';

// Tests are bundled to out/test/<dir>/; the repository root is three levels up.
const REPO = join(__dirname, '../../..');

/**
 * ARCHITECTURE.md's table as this test reads it, written out apart from eslint/zones.mjs so that the two
 * are held to each other: for each room (where a planted file goes), the rooms it may import besides its own.
 */
const PLANTS = {
  model: { file: 'src/model/planted.ts', may: [] },
  io: { file: 'src/io/planted.ts', may: ['model'] },
  scope: { file: 'src/scope/planted.ts', may: ['model', 'io'] },
  engine: { file: 'src/engine/planted.ts', may: ['model', 'io'] },
  staged: { file: 'src/engine/staged/planted.ts', may: ['model', 'io', 'engine'] },
  lenses: { file: 'src/engine/lenses/planted.ts', may: ['model', 'io', 'engine'] },
  report: { file: 'src/report/planted.ts', may: ['model', 'io'] },
  app: {
    file: 'src/app/planted.ts',
    may: ['model', 'io', 'scope', 'engine', 'staged index', 'lenses index', 'report'],
  },
  eval: {
    file: 'src/eval/planted.ts',
    may: ['model', 'io', 'engine', 'staged index', 'lenses index', 'app', 'app door'],
  },
  cli: { file: 'src/cli/planted.ts', may: ['model', 'app', 'app door', 'eval'] },
  'cli.ts': { file: 'src/cli.ts', may: ['cli', 'model', 'app', 'app door', 'eval'] },
  ui: { file: 'src/ui/planted.ts', may: ['model', 'io', 'app door', 'vscode'] },
  'extension.ts': { file: 'src/extension.ts', may: ['ui', 'model', 'io', 'app door', 'vscode'] },
  'worker.ts': { file: 'src/worker.ts', may: ['model', 'app', 'app door'] },
  boot: { file: 'src/boot/planted.ts', may: ['model', 'io'] },
} as const;

/** What a planted import names for each room: a real module of it (a mode's internals and its index apart). */
const TARGETS: Record<string, string> = {
  model: 'src/model/scope',
  io: 'src/io/git',
  scope: 'src/scope/inventory',
  engine: 'src/engine/runner',
  staged: 'src/engine/staged/pipeline',
  'staged index': 'src/engine/staged',
  lenses: 'src/engine/lenses/pipeline',
  'lenses index': 'src/engine/lenses',
  report: 'src/report/markdown',
  app: 'src/app/runJob',
  'app door': 'src/app/protocol',
  eval: 'src/eval/run',
  cli: 'src/cli/args',
  ui: 'src/ui/settings',
  'worker.ts': 'src/worker',
  boot: 'src/boot/codeCache',
  vscode: 'vscode',
};

/** The room a target column belongs to, for "its own room". */
const ROOM_OF: Record<string, string> = {
  'staged index': 'staged',
  'lenses index': 'lenses',
  'app door': 'app',
};

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

/** Each target planted in `from`'s file, one statement each: which of them lint refuses. */
async function refused(from: keyof typeof PLANTS, kind: Kind): Promise<Set<string>> {
  const { file } = PLANTS[from];
  const columns = Object.keys(TARGETS).filter((t) => !(from === 'worker.ts' && t === 'worker.ts'));
  const lines: string[] = [];
  const lineOf = new Map<number, string>();
  columns.forEach((column, i) => {
    lineOf.set(lines.length + 1, column);
    lines.push(...statement(kind, specifier(file, TARGETS[column]!), i).split('\n'));
  });
  const messages = await lint(file, `${lines.join('\n')}\n`);
  return new Set(messages.map((m) => lineOf.get(m.line) ?? `line ${m.line}: ${m.message}`));
}

const expectedRefusals = (from: keyof typeof PLANTS) =>
  Object.keys(TARGETS).filter((column) => {
    if (from === 'worker.ts' && column === 'worker.ts') return false;
    const own = (ROOM_OF[column] ?? column) === from;
    return !own && !(PLANTS[from].may as readonly string[]).includes(column);
  });

describe('lint zones: every import under src/ is judged by the rooms of ARCHITECTURE.md, by path', function () {
  this.timeout(120_000);

  it('refuses each import the table forbids and allows the rest, static and type-only alike', async () => {
    const table: Record<string, Record<string, string>> = {};
    const failures: string[] = [];
    for (const from of Object.keys(PLANTS) as (keyof typeof PLANTS)[]) {
      const expected = new Set(expectedRefusals(from));
      for (const kind of ['import', 'import type'] as const) {
        const got = await refused(from, kind);
        for (const column of Object.keys(TARGETS)) {
          if (from === 'worker.ts' && column === 'worker.ts') continue;
          const verdict = got.has(column) ? '✗' : '✓';
          const cell = ((table[from] ??= {})[column] ??= '');
          table[from][column] = cell === '' || cell === verdict ? verdict : `${cell}/${verdict}`;
          if (got.has(column) !== expected.has(column))
            failures.push(`${kind} ${from} → ${column}: lint says ${verdict}`);
        }
        for (const extra of [...got].filter((g) => !(g in TARGETS))) failures.push(`${kind} ${from}: ${extra}`);
      }
    }
    // SKEPTIC_ZONES_TABLE=file.md: the verdicts as a markdown table (rooms × rooms), for a note.
    if (process.env.SKEPTIC_ZONES_TABLE) writeFileSync(process.env.SKEPTIC_ZONES_TABLE, markdown(table));
    assert.deepEqual(failures, []);
  });

  it('allows a type import of model/scope from engine/ and ui/, and a ./report file inside report/', async () => {
    assert.deepEqual(
      await lint(
        'src/engine/planted.ts',
        "import type { ScopeSpec } from '../model/scope';\nexport type S = ScopeSpec;\n",
      ),
      [],
    );
    assert.deepEqual(
      await lint('src/ui/planted.ts', "import type { ScopeSpec } from '../model/scope';\nexport type S = ScopeSpec;\n"),
      [],
    );
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

  it('refuses a file under src/ in no room, and an import of one', async () => {
    const [alone] = await lint('src/newTopLevel.ts', 'export const x = 1;\n');
    assert.match(alone!.message, /^src\/newTopLevel\.ts is in no room/);
    const [reached] = await lint('src/app/planted.ts', "export * from '../newTopLevel';\n");
    assert.match(reached!.message, /^src\/newTopLevel is in no room/);
    const [outside] = await lint('src/app/planted.ts', "export * from '../../test/helpers/cli';\n");
    assert.match(outside!.message, /imports nothing outside it but prompts\/, package\.json: not test\/helpers\/cli/);
  });
});

function markdown(table: Record<string, Record<string, string>>): string {
  const columns = Object.keys(TARGETS);
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    row(['from \\ to', ...columns]),
    row(['---', ...columns.map(() => ':-:')]),
    ...Object.entries(table).map(([from, cells]) => row([from, ...columns.map((c) => cells[c] ?? '·')])),
    '',
  ].join('\n');
}
