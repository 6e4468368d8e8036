/**
 * A file the change deleted is reviewed for what its removal breaks. The names it offered other files are
 * looked up in the review roots (app/callers.ts); each file still naming one joins the review with the deleted
 * text beside it as removed lines, and the lines that name it count as changed: a defect there is this change's.
 */
import type { FileEntry } from '../model/records';
import { mergeRanges, type LineRange } from '../model/lines';
import type { RemovedHunk } from '../model/removed';
import { languageOf } from '../model/languages';
import type { DeletedFile } from '../scope/changes';
import {
  definedName,
  MAX_FUNCTIONS,
  placesNaming,
  searchable,
  shownPlace,
  type Callers,
  type SearchInput,
} from './callers';
import type { ResolvedScope } from './resolveScope';

/** Files a deletion may bring into the review: its callers beyond them go unreviewed. */
export const MAX_CALLER_FILES = 20;

/** What a file offers other files, by language: a top-level definition, exported where the language marks it. */
const JS = [
  /^export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|interface|type|enum|const|let|var|namespace)\s+([A-Za-z_$][\w$]*)/,
];
const EXPORTS: Record<string, RegExp[]> = {
  typescript: JS,
  javascript: JS,
  python: [/^(?:async\s+)?(?:def|class)\s+([A-Za-z]\w*)/],
  go: [/^func\s+(?:\([^)]*\)\s*)?([A-Z]\w*)/, /^(?:type|var|const)\s+([A-Z]\w*)/],
  rust: [/^pub(?:\([^)]*\))?\s+(?:async\s+)?(?:fn|struct|enum|trait|type|const|static|mod)\s+([A-Za-z_]\w*)/],
};
/** Elsewhere: a definition that starts a line. */
const TOP_LEVEL = [
  /^(?:(?:public|static|final|abstract|export|pub)\s+)*(?:function|def|fn|func|class|struct|interface|enum|module)\s+([A-Za-z_$][\w$]*)/,
];
/** `export { a, b as c }`: the names other files import. */
const EXPORT_LIST = /^export\s*(?:type\s*)?\{([^}]*)\}/;

/** The names a deleted file offered other files, from the text it kept (the first REMOVED_CAPS.fileLines lines). */
export function exportedNames(file: DeletedFile): string[] {
  const patterns = EXPORTS[languageOf(file.path)] ?? TOP_LEVEL;
  const names = new Set<string>();
  for (const line of file.removedLines.flatMap((r) => r.lines)) {
    for (const re of patterns) {
      const name = re.exec(line)?.[1];
      if (name) names.add(name);
    }
    for (const item of EXPORT_LIST.exec(line)?.[1]?.split(',') ?? []) {
      const name = item
        .trim()
        .split(/\s+as\s+/)
        .at(-1)
        ?.trim();
      if (name) names.add(name);
    }
  }
  return [...names].filter(searchable);
}

/** Per file still naming what a deleted file defined: those lines, the deleted text, and which name each line uses. */
export interface DeletionCallers {
  ranges: Map<string, LineRange[]>;
  removed: Map<string, RemovedHunk[]>;
  callers: Callers;
}

/** Bounded like the callers of a changed function: MAX_FUNCTIONS names in all, MAX_CALLER_FILES files. */
export async function findDeletionCallers(input: SearchInput, deleted: DeletedFile[]): Promise<DeletionCallers> {
  const out: DeletionCallers = { ranges: new Map(), removed: new Map(), callers: new Map() };
  const gone = new Set(deleted.map((d) => d.path));
  const full = (path: string) => !out.ranges.has(path) && out.ranges.size >= MAX_CALLER_FILES;
  const names = deleted.flatMap((file) => exportedNames(file).map((name) => ({ file, name })));
  for (const { file, name } of names.slice(0, MAX_FUNCTIONS)) {
    for (const place of await placesNaming(input, name, (path) => gone.has(path) || full(path))) {
      // A file defining a function of its own by that name does not use the deleted one there.
      if (definedName(place.text) === name) continue;
      const { path, line } = place;
      out.ranges.set(path, [...(out.ranges.get(path) ?? []), [line, line]]);
      const removed = out.removed.get(path) ?? [];
      if (!removed.some((r) => r.from === file.path))
        out.removed.set(path, [...removed, ...file.removedLines.map((r) => ({ ...r, from: file.path }))]);
      const key = `${name} (removed)`;
      const named = out.callers.get(path) ?? {};
      out.callers.set(path, { ...named, [key]: [...(named[key] ?? []), shownPlace(place)] });
    }
  }
  return out;
}

/**
 * The scope with the deleted files' callers in it: files not yet under review join it when `admit` (the
 * scope's exclusion rules) lets them; every caller's lines join its changed lines and the deleted text its
 * removed lines. Returns the callers lists to add to the change's own.
 */
export async function withDeletionCallers(
  scope: ResolvedScope,
  found: DeletionCallers,
  admit: (paths: string[]) => Promise<FileEntry[]>,
): Promise<{ scope: ResolvedScope; callers: Callers }> {
  const { discovery } = scope.inventory;
  const known = new Set(discovery.file_entries.map((e) => e.path));
  const added = await admit([...found.ranges.keys()].filter((p) => !known.has(p)));
  for (const e of added) known.add(e.path);
  const changedRanges = new Map(scope.changedRanges);
  const removedLines = new Map(scope.removedLines);
  const callers: Callers = new Map();
  for (const [path, ranges] of found.ranges) {
    if (!known.has(path)) continue;
    changedRanges.set(path, mergeRanges([...(changedRanges.get(path) ?? []), ...ranges]));
    removedLines.set(path, [...(removedLines.get(path) ?? []), ...found.removed.get(path)!]);
    callers.set(path, found.callers.get(path)!);
  }
  const entries = [...discovery.file_entries, ...added].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  return {
    scope: {
      ...scope,
      inventory: { ...scope.inventory, discovery: { ...discovery, file_entries: entries } },
      changedRanges,
      removedLines,
    },
    callers,
  };
}
