import assert from 'node:assert/strict';
import { fingerprint, lineText, normaliseCode } from '../../src/model/fingerprint';

const FILE = [
  'function total(items) {',
  '  let sum = 0;',
  '  for (let i = 0; i <= items.length; i++) sum += items[i].price;',
  '  return sum;',
  '}',
];
const at = (lines: string[], line: number, over: Partial<Parameters<typeof fingerprint>[0]> = {}) =>
  fingerprint({ rule_id: 'A1', file: 'shop/cart.ts', function: 'total', code: lineText(lines, line), ...over });

describe('finding fingerprints', () => {
  const original = at(FILE, 3);

  it('survive edits elsewhere in the file: lines added above, lines removed below, re-indentation', () => {
    const moved = ['// a new header comment', 'import { x } from "y";', '', ...FILE];
    assert.equal(at(moved, 6), original);
    assert.equal(at(FILE.slice(0, 3), 3), original);
    const reindented = FILE.map((l) => `\t${l.trim()}`);
    assert.equal(at(reindented, 3), original);
  });

  it('change when the line itself is edited', () => {
    const fixed = FILE.map((l, i) => (i === 2 ? l.replace('<=', '<') : l));
    assert.notEqual(at(fixed, 3), original);
  });

  it('differ by rule, function and file, and are short lowercase hex', () => {
    assert.notEqual(at(FILE, 3, { rule_id: 'A5' }), original);
    assert.notEqual(at(FILE, 3, { function: 'subtotal' }), original);
    assert.notEqual(at(FILE, 3, { file: 'shop/other.ts' }), original);
    assert.match(original, /^[0-9a-f]{20}$/);
  });

  it('normalise whitespace only, and read lines 1-based', () => {
    assert.equal(normaliseCode('  a  =\tb;  '), 'a = b;');
    assert.equal(lineText(FILE, 1), FILE[0]);
    assert.equal(lineText(FILE, 0), undefined);
    assert.equal(lineText(FILE, 6), undefined);
  });
});
