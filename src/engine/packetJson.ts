/**
 * A context packet's JSON: laid out as `JSON.stringify(value, null, 2)` does, except that an object inside it
 * holding only plain values (a function row, a finding) takes one line, spaced as the rest. Packets are
 * mostly such rows (Step 2's inventory, Step 4's findings, synthesis's records), and a line of its own for
 * each of their fields was a fifth to a third of a packet's characters, sent uncached or written once.
 */
export function packetJson(value: unknown): string {
  return layout(JSON.parse(JSON.stringify(value)) as Json, '', true);
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const plain = (v: Json) => v === null || typeof v !== 'object';
const oneLine = (row: Record<string, Json>): string =>
  `{${Object.entries(row)
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(', ')}}`;

function layout(json: Json, indent: string, top = false): string {
  if (plain(json)) return JSON.stringify(json);
  const inner = `${indent}  `;
  if (Array.isArray(json)) {
    if (!json.length) return '[]';
    return `[\n${json.map((v) => inner + layout(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(json as Record<string, Json>);
  if (!entries.length) return '{}';
  if (!top && entries.every(([, v]) => plain(v))) return oneLine(json as Record<string, Json>);
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${layout(v, inner)}`).join(',\n')}\n${indent}}`;
}
