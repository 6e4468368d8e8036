import assert from 'node:assert/strict';
import { reconcile } from '../../src/engine/staged/reconcile';
import type { CodeFunction } from '../../src/model/functions';

const fn = (qualified_name: string, start_line: number, end_line: number): CodeFunction => ({
  qualified_name,
  kind: 'method',
  visibility: 'public',
  start_line,
  end_line,
});
const row = (qualified_name: string, start_line: number, role = 'described', solo_review = false) => ({
  qualified_name,
  kind: 'function',
  visibility: 'private' as const,
  role_in_file: role,
  start_line,
  solo_review,
});

describe('Step 2 reconciled with the parser inventory', () => {
  const inventory = [fn('Buf.append', 3, 9), fn('Buf.append#2', 11, 14), fn('Buf.flush', 16, 30), fn('helper', 32, 35)];

  it('keeps the model notes, takes names, kinds and lines from the parser, adds the omitted, rejects the invented', () => {
    const r = reconcile(
      [row('Buf::append', 3, 'adds bytes', true), row('Buf.flush', 17, 'writes out'), row('Buf.ghost', 40)],
      inventory,
    );
    assert.deepEqual(
      r.functions.map((f) => [
        f.qualified_name,
        f.kind,
        f.visibility,
        f.start_line,
        f.end_line,
        f.role_in_file,
        f.solo_review,
      ]),
      [
        ['Buf.append', 'method', 'public', 3, 9, 'adds bytes', true],
        ['Buf.append#2', 'method', 'public', 11, 14, 'public method (not described by the analysis)', false],
        ['Buf.flush', 'method', 'public', 16, 30, 'writes out', false],
        ['helper', 'method', 'public', 32, 35, 'public method (not described by the analysis)', false],
      ],
    );
    assert.deepEqual(r.added, ['Buf.append#2', 'helper']);
    assert.deepEqual(r.rejected, ['Buf.ghost']);
    assert.deepEqual(r.corrected, ['Buf.flush'], 'its start line was off by one');
  });

  it('matches an overload the model named its own way by its start line, and a renamed function by its short name', () => {
    const r = reconcile(
      [row('Buf.append(const char*)', 3), row('Buf.append(std::string_view)', 11), row('utils.helper', 33)],
      inventory,
    );
    assert.deepEqual(r.rejected, []);
    assert.deepEqual(r.added, ['Buf.flush']);
    assert.deepEqual(r.corrected.sort(), ['Buf.append', 'Buf.append#2', 'helper']);
  });
});
