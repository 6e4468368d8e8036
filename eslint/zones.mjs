// The rooms of src/ and who may import whom: the table of ARCHITECTURE.md ("Layers"), checked by path
// (test/unit/zones.test.ts reads that table and fails unless it says what ROOMS says).
// Every import of a file under src/ — static, `import type`, `export … from`, dynamic `import()`,
// `require()`, `import x = require()` and `typeof import()` in a type — is resolved to the path it names
// and judged by this one table, type-only imports alike; so is a module from outside src/ that only some rooms
// may use ('vscode') or that does I/O (node's fs, child_process, net… are refused in the pure rooms). A file under src/ in no room is itself an error,
// and so is an import of src/ outside every room or of anything outside src/ but the assets below.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Each room: the paths it holds (relative to src/; a folder ends with "/") and what it may import besides
 * itself — a room by name, or one module by its path without extension (the only door into its room).
 * A file belongs to the room with the longest matching path: engine/staged/ is not engine/.
 */
export const ROOMS = {
  model: { holds: ['model/'], may: [] },
  io: { holds: ['io/'], may: ['model'] },
  scope: { holds: ['scope/'], may: ['model', 'io'] },
  // engine/ itself: what both modes share. It imports neither mode.
  engine: { holds: ['engine/'], may: ['model', 'io'] },
  staged: { holds: ['engine/staged/'], may: ['model', 'io', 'engine'] },
  lenses: { holds: ['engine/lenses/'], may: ['model', 'io', 'engine'] },
  report: { holds: ['report/'], may: ['model', 'io'] },
  app: {
    holds: ['app/'],
    may: ['model', 'io', 'scope', 'engine', 'engine/staged/index', 'engine/lenses/index', 'report'],
  },
  // Its judge is a sub-agent call, and a review's cache key names the mode's prompt version.
  eval: { holds: ['eval/'], may: ['model', 'io', 'engine', 'engine/staged/index', 'engine/lenses/index', 'app'] },
  cli: { holds: ['cli/', 'cli.ts'], may: ['model', 'app', 'eval'] },
  // The host: the worker's messages and the ids package.json contributes; everything else runs in the worker.
  ui: {
    holds: ['ui/', 'extension.ts'],
    may: ['model', 'io', 'app/protocol', 'app/contributions', 'app/choices', 'app/connection'],
  },
  worker: { holds: ['worker.ts'], may: ['model', 'app'] },
  // It runs before the bundle it starts, so it stays small.
  boot: { holds: ['boot/'], may: ['model', 'io'] },
};

/**
 * Modules from outside src/ that only some rooms may import, in any form: the editor's API runs only in the
 * host (everything else runs in the worker, the CLI and plain mocha alike).
 */
export const ONLY = { vscode: ['ui'] };

/** Rooms that do no I/O of their own (reading and writing go through io/), and node's modules that do. */
export const PURE = ['model', 'report'];
export const NODE_IO = [
  'child_process',
  'cluster',
  'dgram',
  'dns',
  'fs',
  'http',
  'http2',
  'https',
  'net',
  'readline',
  'tls',
  'worker_threads',
];

/** The verdict on an import of a module from outside src/ (`spec` as written): undefined when allowed. */
export function externalVerdict(srcDir, from, spec) {
  const fromRoom = roomOf(under(srcDir, from));
  if (!fromRoom) return undefined;
  const only = ONLY[spec];
  if (only && !only.includes(fromRoom))
    return `only ${only.map((r) => ROOMS[r].holds.join(' and ')).join(', ')} may import '${spec}' (ARCHITECTURE.md)`;
  const name = spec.replace(/^node:/, '');
  if (PURE.includes(fromRoom) && NODE_IO.some((m) => name === m || name.startsWith(`${m}/`)))
    return `${ROOMS[fromRoom].holds.join(' and ')} does no I/O of its own (ARCHITECTURE.md): not '${spec}'; that goes through io/`;
  return undefined;
}

/** What src/ may import from the rest of the repository (relative to its root): prompt texts, the version. */
const ASSETS = ['prompts/', 'package.json'];

/** `to` relative to `from`, with forward slashes. */
const under = (from, to) => relative(from, to).split(sep).join('/');

/** The room holding `path` (relative to src/, forward slashes), or undefined. */
export function roomOf(path) {
  let best;
  for (const [name, room] of Object.entries(ROOMS))
    for (const held of room.holds)
      if ((held.endsWith('/') ? path.startsWith(held) : path === held) && (!best || held.length > best.held.length))
        best = { name, held };
  return best?.name;
}

/** The module a path names, as the table writes it: no extension, a folder's index spelled out. */
function moduleOf(path, isFolder) {
  const bare = path.replace(/\.(ts|js|mjs|cjs)$/, '');
  return isFolder ? `${bare}/index` : bare;
}

const allowance = (name) => {
  const room = ROOMS[name];
  const doors = room.may.map((m) => (ROOMS[m] ? `${ROOMS[m].holds.join(', ')}` : `${m}.ts`));
  return `${room.holds.join(' and ')} may import ${doors.length ? doors.join(', ') : 'nothing of ours'}`;
};

/**
 * The verdict on one import: undefined when the table allows it, else the message. `from` and `target`
 * are absolute; `isFolder` when the specifier names a folder (its index).
 */
export function verdict(srcDir, from, target, isFolder) {
  const fromRoom = roomOf(under(srcDir, from));
  // A file in no room is reported once, as such.
  if (!fromRoom) return undefined;
  const rel = under(srcDir, target);
  if (rel.startsWith('../')) {
    const outside = under(dirname(srcDir), target);
    if (ASSETS.some((a) => (a.endsWith('/') ? outside.startsWith(a) : outside === a))) return undefined;
    return `src/ imports nothing outside it but ${ASSETS.join(', ')}: not ${outside}`;
  }
  const targetRoom = roomOf(isFolder ? `${rel}/` : rel);
  if (!targetRoom) return `src/${rel} is in no room of ARCHITECTURE.md's table (eslint/zones.mjs)`;
  if (targetRoom === fromRoom) return undefined;
  const room = ROOMS[fromRoom];
  if (room.may.includes(targetRoom) || room.may.includes(moduleOf(rel, isFolder))) return undefined;
  const named = isFolder ? `src/${rel}/` : /\.[a-z]+$/.test(rel) ? `src/${rel}` : `src/${rel}.ts`;
  return `${allowance(fromRoom)} (ARCHITECTURE.md): not ${named}`;
}

/** The string a module reference names, when it is written as one. */
function literal(node) {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  if (node.type === 'TSLiteralType') return literal(node.literal);
  return undefined;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: "Imports under src/ follow the rooms of ARCHITECTURE.md's table, by path" },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const srcDir = resolve(context.cwd, 'src');
    const own = under(srcDir, file);
    if (own.startsWith('../')) return {};
    const check = (source, node = source) => {
      const spec = literal(source);
      if (spec === undefined) {
        if (source)
          context.report({
            node,
            message: 'an import under src/ names its module with a plain string, so that its room can be checked',
          });
        return;
      }
      const target = join(dirname(file), spec);
      const message = spec.startsWith('.')
        ? verdict(srcDir, file, target, namesFolder(srcDir, target))
        : externalVerdict(srcDir, file, spec);
      if (message) context.report({ node, message });
    };
    return {
      Program(node) {
        if (!roomOf(own))
          context.report({
            node,
            message: `src/${own} is in no room of ARCHITECTURE.md's table: move it into one, or give it a room in eslint/zones.mjs`,
          });
      },
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => node.source && check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source, node),
      TSImportEqualsDeclaration: (node) =>
        node.moduleReference.type === 'TSExternalModuleReference' && check(node.moduleReference.expression),
      TSImportType: (node) => check(node.argument, node),
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1)
          check(node.arguments[0], node);
      },
    };
  },
};

/** Whether `target` names a folder (so its index): one with an index on disk, or one a room holds. */
function namesFolder(srcDir, target) {
  if (existsSync(`${target}.ts`)) return false;
  const rel = under(srcDir, target);
  return existsSync(join(target, 'index.ts')) || Object.values(ROOMS).some((r) => r.holds.includes(`${rel}/`));
}

export default { meta: { name: 'skeptic-zones' }, rules: { zones: rule } };
