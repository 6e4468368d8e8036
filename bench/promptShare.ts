/**
 * `npm run bench:prompt-share [-- --cli PATH]`: where the characters of each request go. The built CLI reviews a
 * change to a realistic ~300-line TypeScript file, in staged and in lens mode, against the fake Messages API;
 * each step's first request is split into tools (the tool list and any output schema), system, code (the
 * source blocks), removed lines, intent and packet (everything else in the user turn: directives, briefs, the
 * context packet), in characters and as a share of the request. `--cli` measures another build (e.g. the
 * code before a change) on the same file. Prints; asserts nothing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Scenario } from '../test/fake-anthropic/scenario';
import { startFakeAnthropic, type FakeAnthropic, type LoggedRequest } from '../test/fake-anthropic/server';
import { STEP_OF } from './timeline';

const REPO = resolve(__dirname, '../..');
const PATH = 'src/orders.ts';

/** One entity's slice of the file: a row type, a store with a read-modify-write, a validator and a formatter (~58 lines). */
function entity(name: string, table: string, limit: number): string[] {
  const T = name[0]!.toUpperCase() + name.slice(1);
  return [
    `/** A ${name} as the ${table} table stores it. */`,
    `export interface ${T}Row {`,
    '  id: string;',
    '  owner: string;',
    '  quantity: number;',
    '  reserved: number;',
    '  updatedAt: number;',
    '  tags: string[];',
    '}',
    '',
    `/** Reads and writes ${table} rows through the shared database handle. */`,
    `export class ${T}Store {`,
    '  constructor(private readonly db: Database, private readonly clock: () => number = Date.now) {}',
    '',
    `  /** The row, or undefined when no ${name} has this id. */`,
    `  async get(id: string): Promise<${T}Row | undefined> {`,
    `    const rows = await this.db.query<${T}Row>('SELECT * FROM ${table} WHERE id = $1', [id]);`,
    '    return rows[0];',
    '  }',
    '',
    `  /** Reserves \`count\` units of a ${name}; throws when fewer than that are free. */`,
    '  async reserve(id: string, count: number): Promise<number> {',
    '    const row = await this.get(id);',
    `    if (!row) throw new NotFound('${name}', id);`,
    '    if (count <= 0) throw new RangeError(`count must be positive, got ${count}`);',
    '    const free = row.quantity - row.reserved;',
    `    if (count > free || count > ${limit}) throw new Conflict(\`only \${free} free\`);`,
    '    row.reserved += count;',
    '    row.updatedAt = this.clock();',
    `    await this.db.execute('UPDATE ${table} SET reserved = $1, updated_at = $2 WHERE id = $3', [`,
    '      row.reserved,',
    '      row.updatedAt,',
    '      id,',
    '    ]);',
    '    return free - count;',
    '  }',
    '}',
    '',
    `/** Checks a ${name} row before it is written; returns the problems found, empty when none. */`,
    `export function validate${T}(row: ${T}Row): string[] {`,
    '  const problems: string[] = [];',
    "  if (!row.id.trim()) problems.push('id is empty');",
    "  if (!Number.isInteger(row.quantity) || row.quantity < 0) problems.push('quantity must be a whole number');",
    "  if (row.reserved > row.quantity) problems.push('more reserved than held');",
    '  for (const tag of row.tags) if (!/^[a-z0-9-]+$/.test(tag)) problems.push(`bad tag ${tag}`);',
    '  return problems;',
    '}',
    '',
    `/** One line for the ${table} report: id, owner, free units and tags. */`,
    `export function format${T}(row: ${T}Row): string {`,
    '  const free = row.quantity - row.reserved;',
    "  const tags = row.tags.length ? ` [${row.tags.join(', ')}]` : '';",
    '  return `${row.id.padEnd(12)} ${row.owner.padEnd(16)} ${String(free).padStart(6)}${tags}`;',
    '}',
    '',
  ];
}

function orderFile(): string {
  const head = [
    '/** Stock reservations for orders, invoices, shipments, returns and transfers. */',
    "import type { Database } from './db';",
    "import { Conflict, NotFound } from './errors';",
    '',
  ];
  const names: [string, string, number][] = [
    ['order', 'orders', 500],
    ['invoice', 'invoices', 200],
    ['shipment', 'shipments', 70],
    ['return', 'returns', 50],
    ['transfer', 'transfers', 1000],
  ];
  const tail = [
    '/** Free units per owner across rows of every kind, largest first; owners with none free are left out. */',
    'export function freeByOwner(rows: { owner: string; quantity: number; reserved: number }[]): [string, number][] {',
    '  const totals = new Map<string, number>();',
    '  for (const row of rows) {',
    '    const free = row.quantity - row.reserved;',
    '    if (free <= 0) continue;',
    '    totals.set(row.owner, (totals.get(row.owner) ?? 0) + free);',
    '  }',
    '  return [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));',
    '}',
    '',
    '/** The owners whose reservations exceed what they hold, for the nightly audit. */',
    'export function overReserved(rows: { owner: string; quantity: number; reserved: number }[]): string[] {',
    '  const owners = new Set<string>();',
    '  for (const row of rows) if (row.reserved > row.quantity) owners.add(row.owner);',
    '  return [...owners].sort();',
    '}',
    '',
  ];
  return [...head, ...names.flatMap(([n, t, l]) => entity(n, t, l)), ...tail].join('\n');
}

/** The change: the shipment store loses its not-found guard and its limit drops from 70 to 7. */
function changed(text: string): string {
  return text
    .split('\n')
    .filter((l) => l !== "    if (!row) throw new NotFound('shipment', id);")
    .join('\n')
    .replace('count > 70)', 'count > 7)');
}

const scenario: Scenario = {
  files: {
    [PATH]: {
      reviews: {
        'ShipmentStore.reserve': {
          A1: { verdict: 'flag', confidence: 'high', line: 142, rationale: 'A missing row throws a TypeError.' },
        },
      },
    },
  },
  lenses: {
    logic: [{ file: PATH, line: 142, severity: 'HIGH', title: 'Missing row crashes reserve' }],
  },
};

async function run(server: FakeAnthropic, cli: string, args: string[]): Promise<LoggedRequest[]> {
  const root = await mkdtemp(join(tmpdir(), 'skeptic-share-'));
  const cache = await mkdtemp(join(tmpdir(), 'skeptic-share-cache-'));
  try {
    await mkdir(join(root, 'src'));
    const text = orderFile();
    await writeFile(join(root, PATH), text);
    const git = (...a: string[]) => execFileSync('git', a, { cwd: root, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.email=bench@skeptic', '-c', 'user.name=bench', 'commit', '-qm', 'orders');
    await writeFile(join(root, PATH), changed(text));
    const from = server.requests.length;
    const child = spawn(process.execPath, [cli, 'review', '--yes', '--no-cache', '--changes', '--force', ...args], {
      cwd: root,
      env: { ...process.env, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, XDG_CACHE_HOME: cache },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const code = await new Promise<number | null>((done) => child.on('close', done));
    if (code !== 0 && code !== 1) throw new Error(`review exited ${code}: ${stderr.slice(-2000)}`);
    return server.requests.slice(from);
  } finally {
    await rm(root, { recursive: true, force: true });
    await rm(cache, { recursive: true, force: true });
  }
}

const PARTS = ['tools', 'system', 'code', 'removed', 'intent', 'packet'] as const;
type Split = Record<(typeof PARTS)[number], number>;

/**
 * A tagged block of the user turn, by what its tag or role says it holds. Source blocks are code; the
 * removed lines of a diff and the change's intent (PR title and body, commit subjects) count apart when
 * their blocks say so in the tag or the role (`removed`/`deleted`/`old`; `intent`/`description`).
 */
const TAGGED = /<(untrusted_[a-z_]+?)(_[0-9a-f]{8})?\b([^>]*)>[\s\S]*?<\/\1\2>/g;
function kindOf(tag: string, attrs: string): keyof Split {
  const says = `${tag} ${attrs}`;
  if (/removed|deleted|\bold\b|role="base"/.test(says)) return 'removed';
  if (/intent|description|pull_request|commit/.test(says)) return 'intent';
  return /source/.test(tag) ? 'code' : 'packet';
}

function split(body: unknown): Split {
  const b = body as {
    tools?: unknown[];
    tool_choice?: unknown;
    output_config?: unknown;
    system?: string | { text: string }[];
    messages: { content: string | { type: string; text?: string }[] }[];
  };
  const out: Split = { tools: 0, system: 0, code: 0, removed: 0, intent: 0, packet: 0 };
  out.tools = JSON.stringify(b.tools ?? []).length + JSON.stringify(b.output_config ?? '').length;
  out.system = typeof b.system === 'string' ? b.system.length : (b.system ?? []).reduce((n, s) => n + s.text.length, 0);
  const first = b.messages[0]!.content;
  const texts = typeof first === 'string' ? [first] : first.map((c) => c.text ?? JSON.stringify(c));
  for (const text of texts) {
    let rest = text.length;
    for (const m of text.matchAll(TAGGED)) {
      out[kindOf(m[1]!, m[3]!)] += m[0].length;
      rest -= m[0].length;
    }
    out.packet += rest;
  }
  return out;
}

/** The step a request belongs to: the staged record's step, or the lens reviewer (validator, cross-repo). */
function stepOf(r: LoggedRequest): string | null {
  if (r.turn !== 1 || !r.usage) return null;
  if (r.record && STEP_OF[r.record]) return STEP_OF[r.record]!;
  if (r.record === 'LensValidation') return 'lens validator';
  return r.reviewer ? `lens ${r.reviewer}` : null;
}

function table(title: string, requests: LoggedRequest[]): string {
  const steps = new Map<string, Split[]>();
  for (const r of requests) {
    const step = stepOf(r);
    if (step) steps.set(step, [...(steps.get(step) ?? []), split(r.body)]);
  }
  const rows = [
    `${title}`,
    `| step (requests) | total | ${PARTS.join(' | ')} |`,
    `|---|---:|${PARTS.map(() => '---:').join('|')}|`,
  ];
  for (const [step, splits] of steps) {
    const mean = Object.fromEntries(
      PARTS.map((p) => [p, Math.round(splits.reduce((n, s) => n + s[p], 0) / splits.length)]),
    ) as Split;
    const total = PARTS.reduce((n, p) => n + mean[p], 0);
    const cell = (n: number) => `${(n / 1000).toFixed(1)}k ${Math.round((100 * n) / total)}%`;
    rows.push(
      `| ${step} (${splits.length}) | ${(total / 1000).toFixed(1)}k | ${PARTS.map((p) => cell(mean[p])).join(' | ')} |`,
    );
  }
  return rows.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { cli: { type: 'string' } } });
  const cli = resolve(values.cli ?? join(REPO, 'dist/cli.js'));
  const server = await startFakeAnthropic({ scenario });
  try {
    const lines = orderFile().split('\n').length;
    console.log(`prompt share: ${PATH} (${lines} lines, a change of 2), ${cli}\n`);
    console.log(table('staged (mean per step, first turn)', await run(server, cli, [])));
    console.log();
    console.log(table('lenses (mean per reviewer, first turn)', await run(server, cli, ['--mode', 'lenses'])));
  } finally {
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
