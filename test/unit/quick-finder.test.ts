import assert from 'node:assert/strict';
import { quickInventory } from '../../src/scope/syntax/quickFinder';

/** Each function found, as `name@start-end`. */
const found = (path: string, text: string) =>
  (quickInventory(path, text)?.functions ?? []).map((f) => `${f.qualified_name}@${f.start_line}-${f.end_line}`);

describe('quick finder: line patterns tried where lines start', () => {
  it('C: a definition, one whose name is on the next line, not a directive nor a declaration', () => {
    const text =
      'int add(int a, int b) {\n  return a + b;\n}\n#define X(a) (a)\nstatic void\nnoop (void) { }\nint decl(int);\n';
    assert.deepEqual(found('a.c', text), ['add@1-5', 'noop@6-7']);
  });

  it('C++ with CRLF line ends: operators, destructors and lambdas on the lines they start', () => {
    const text =
      'class A {\r\n  explicit operator bool() const {\r\n    return true;\r\n  }\r\n  ~A() {}\r\n};\r\n' +
      'auto f = [](int x) { return x; };\r\n';
    assert.deepEqual(found('a.cpp', text), ['operator bool@2-4', '~A@5-6', 'f@7-7']);
  });

  it('a line without the `(` a C signature needs is never a start, wherever the next `(` is', () => {
    const text = 'struct S {\n  int a;\n  int b;\n};\n\nint later(void) {\n  return 0;\n}\n';
    assert.deepEqual(found('s.h', text), ['later@6-8']);
  });

  it('Python: nested and async definitions and a lambda binding', () => {
    const text =
      'def top(x):\n    def inner():\n        pass\n    return inner\n\nsquare = lambda v: v * v\n' +
      'class K:\n    async def run(self):\n        pass\n';
    assert.deepEqual(found('a.py', text), ['top@1-1', 'inner@2-5', 'square@6-7', 'run@8-9']);
  });

  it('TypeScript: a binding spread over lines is one start, an overload none, methods and tests', () => {
    const text =
      'export const build = (\n  a: number,\n) => a;\nexport function over(a: string): void;\n' +
      'export function over(a: unknown) {\n  return a;\n}\nclass C {\n  get(k: string): string {\n    return k;\n  }\n\n\n' +
      "  put(k: string) {}\n}\nit('works', () => {});\n";
    assert.deepEqual(found('a.ts', text), ['build@1-4', 'over@5-8', 'get@9-11', 'put@12-15', 'works@16-16']);
  });

  it('counts nothing in a language it has no patterns for', () => {
    assert.equal(quickInventory('notes.md', 'def f(x):\n'), undefined);
  });
});
