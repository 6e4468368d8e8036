/**
 * Step 2's function list checked against the parser's inventory: the parser decides which functions exist
 * and where they are, the model only describes them. A function the model left out is added (and so
 * reviewed), one the file does not have is rejected, and names and lines are taken from the parser.
 */
import type { CodeFunction } from '../../model/functions';
import type { FunctionRow } from '../../model/records';

export interface Reconciliation {
  functions: FunctionRow[];
  /** Inventory functions the answer left out, added without the model's notes. */
  added: string[];
  /** Answer rows that match no function of the file, dropped. */
  rejected: string[];
  /** Matched rows whose name or lines the parser corrected. */
  corrected: string[];
}

/** `Type::method`, `Type->method` and `Type.method` are one name. */
const normal = (name: string) => name.replace(/::|->/g, '.').replace(/\s+/g, '');
/** The bare name: no owner, no parameter list (`Buf.append(const char*)` → `append`), no overload suffix. */
const lastPart = (name: string) => normal(name).replace(/\(.*$/, '').replace(/#\d+$/, '').split('.').at(-1) ?? name;

export function reconcile(answer: FunctionRow[], inventory: CodeFunction[]): Reconciliation {
  const matched = new Map<CodeFunction, FunctionRow>();
  const unmatched = new Set(answer);
  const pair = (fn: CodeFunction, row: FunctionRow) => {
    matched.set(fn, row);
    unmatched.delete(row);
  };
  const free = () => inventory.filter((fn) => !matched.has(fn));
  // Exact names first, then a row at the function's start line, then a unique short name.
  for (const fn of inventory) {
    const row = [...unmatched].find((r) => normal(r.qualified_name) === fn.qualified_name);
    if (row) pair(fn, row);
  }
  for (const fn of free()) {
    const row = [...unmatched].find(
      (r) => r.start_line === fn.start_line && lastPart(r.qualified_name) === lastPart(fn.qualified_name),
    );
    if (row) pair(fn, row);
  }
  for (const row of [...unmatched]) {
    const same = free().filter((fn) => lastPart(fn.qualified_name) === lastPart(row.qualified_name));
    if (same.length === 1) pair(same[0]!, row);
  }

  const added: string[] = [];
  const corrected: string[] = [];
  const functions = inventory.map((fn): FunctionRow => {
    const row = matched.get(fn);
    if (!row) added.push(fn.qualified_name);
    else if (
      normal(row.qualified_name) !== fn.qualified_name ||
      row.start_line !== fn.start_line ||
      (row.end_line != null && row.end_line !== fn.end_line)
    )
      corrected.push(fn.qualified_name);
    return {
      qualified_name: fn.qualified_name,
      kind: fn.kind,
      visibility: fn.visibility,
      role_in_file: row?.role_in_file ?? `${fn.visibility} ${fn.kind} (not described by the analysis)`,
      start_line: fn.start_line,
      end_line: fn.end_line,
      solo_review: row?.solo_review ?? false,
    };
  });
  return { functions, added, rejected: [...unmatched].map((r) => r.qualified_name), corrected };
}
