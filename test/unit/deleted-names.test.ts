/** Which names a deleted file offered other files: what its callers are looked up by (app/deletedFiles.ts). */
import assert from 'node:assert/strict';
import { exportedNames } from '../../src/app/deletedFiles';

const names = (path: string, ...lines: string[]) =>
  exportedNames({ path, removedLines: [{ base: 1, before: 1, lines, omitted: 0 }] });

describe('the names a deleted file offered other files', () => {
  it('TypeScript: its exports, listed or declared, and not what it kept to itself', () => {
    assert.deepEqual(
      names(
        'src/a.ts',
        'export async function loadUser(id: string) {',
        'export default class Store {}',
        'export const LIMIT = 3;',
        'export interface Shape {}',
        'function helperOnly() {}',
        '  export const nested = 1;',
        'export { first, second as renamed };',
      ),
      ['loadUser', 'Store', 'LIMIT', 'Shape', 'first', 'renamed'],
    );
  });

  it('Python, Go and Rust by their own marks of what is public', () => {
    assert.deepEqual(names('m.py', 'def parse(x):', 'class Model:', 'def _private():', '    def method(self):'), [
      'parse',
      'Model',
    ]);
    assert.deepEqual(names('m.go', 'func Parse(s string) int {', 'func (r *Repo) Save() error {', 'func local() {}'), [
      'Parse',
      'Save',
    ]);
    assert.deepEqual(names('m.rs', 'pub fn parse() {}', 'fn local() {}', 'pub(crate) struct Config {'), [
      'parse',
      'Config',
    ]);
  });

  it('keywords and names too short to search for are left out', () => {
    assert.deepEqual(names('a.ts', 'export const id = 1;', 'export function go() {}'), []);
  });
});
