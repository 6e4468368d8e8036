import assert from 'node:assert/strict';
import { packetJson } from '../../src/engine/packetJson';

const PACKET = {
  file_path: 'a.ts',
  changed_ranges: [[17, 18]],
  function_inventory: [
    { qualified_name: 'f', kind: 'function', start_line: 1, end_line: 9 },
    { qualified_name: 'g', kind: 'method', start_line: 10, end_line: null },
  ],
  intent: { source: '--intent', text: 'Round "each" line\n}', cap_chars: 4000, cut: false },
  callers: { f: ['b.ts:3  f(1)'] },
  empty: [],
  skipped: undefined,
};

describe('a context packet as JSON', () => {
  it('reads back as the packet it was made from', () => {
    assert.deepEqual(JSON.parse(packetJson(PACKET)), JSON.parse(JSON.stringify(PACKET)));
    for (const value of [[], {}, 'x', 3, null, [{ a: 1 }], { a: { b: { c: 1 } } }])
      assert.deepEqual(JSON.parse(packetJson(value)), value);
  });

  it('puts each row of plain values on one line and lays out the rest as JSON.stringify(…, null, 2) does', () => {
    const text = packetJson(PACKET);
    assert.ok(text.includes('\n    {"qualified_name": "f", "kind": "function", "start_line": 1, "end_line": 9},\n'));
    assert.ok(
      text.includes('\n  "intent": {"source": "--intent", "text": "Round \\"each\\" line\\n}", "cap_chars": 4000'),
    );
    // The packet itself, lists and objects holding lists keep a line per entry.
    assert.match(
      text,
      /^\{\n {2}"file_path": "a\.ts",\n {2}"changed_ranges": \[\n {4}\[\n {6}17,\n {6}18\n {4}\]\n {2}\],/,
    );
    assert.ok(text.includes('\n  "callers": {\n    "f": [\n      "b.ts:3  f(1)"\n    ]\n  },\n  "empty": []\n}'));
    assert.ok(text.length < JSON.stringify(PACKET, null, 2).length);
  });
});
