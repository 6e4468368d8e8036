import assert from 'node:assert/strict';
import { isTestFile, routeReviewers, type RoutingInput } from '../../src/engine/lenses/routing';
import { toSourceFile } from '../../src/engine/source';

const file = (path: string, text = 'x = 1\n') => toSourceFile(path, text);
const route = (over: Partial<RoutingInput>) =>
  routeReviewers({ files: [], fullFanout: true, maxReviewers: 8, hasSpec: false, ...over });
const extras = (over: Partial<RoutingInput>) => route(over).reviewers.slice(3);

describe('lens routing', () => {
  it('runs only the three defaults without --full-fanout', () => {
    const r = route({
      fullFanout: false,
      maxReviewers: 3,
      files: [file('src/a.ts', 'try { f(); } catch {}')],
      hasSpec: true,
    });
    assert.deepEqual(r.reviewers, ['security', 'logic', 'performance']);
  });

  it('routes a TypeScript scope to types, silent-failures and tests', () => {
    const files = [
      file('src/cart.ts', 'export async function save() {\n  await put().catch(() => undefined);\n}\n'),
      file('src/cart.test.ts', "it('adds', () => {});\n"),
    ];
    assert.deepEqual(extras({ files }), ['types', 'silent-failures', 'tests']);
  });

  it('routes an untyped Python scope to silent-failures and tests, not types', () => {
    const files = [
      file('app/cart.py', 'def save(store):\n    try:\n        store.put()\n    except Exception:\n        pass\n'),
      file('app/test_cart.py', 'def test_add():\n    pass\n'),
    ];
    assert.deepEqual(extras({ files }), ['silent-failures', 'tests']);
  });

  it('treats annotated Python as typed', () => {
    assert.deepEqual(extras({ files: [file('app/price.py', 'def round_cents(x: float) -> float:\n    return x\n')] }), [
      'types',
      'tests',
    ]);
  });

  it('routes a Go scope to types, and to silent-failures for handled or ignored errors', () => {
    const handled = file(
      'pkg/store.go',
      'func Load() error {\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n',
    );
    assert.deepEqual(extras({ files: [handled, file('pkg/store_test.go', 'func TestLoad(t *testing.T) {}\n')] }), [
      'types',
      'silent-failures',
      'tests',
    ]);
    assert.deepEqual(extras({ files: [file('pkg/x.go', 'func F() {\n\tv, _ := strconv.Atoi(s)\n}\n')] }), [
      'types',
      'silent-failures',
      'tests',
    ]);
    assert.deepEqual(extras({ files: [file('pkg/sum.go', 'func Sum(a, b int) int { return a + b }\n')] }), [
      'types',
      'tests',
    ]);
  });

  it('adds spec-compliance only with a spec, and tests only for non-test code', () => {
    assert.deepEqual(extras({ files: [file('README.md', '# Docs\n')], hasSpec: true }), ['spec-compliance']);
    assert.deepEqual(extras({ files: [file('src/a.test.ts', 'it("x", () => {});\n'), file('tests/helpers.py')] }), [
      'types',
    ]);
  });

  it('adds comments over 50 changed lines, or over 10 files in a path scope', () => {
    const one = [file('notes.md')];
    assert.deepEqual(extras({ files: one, changedLines: 51 }), ['comments']);
    assert.deepEqual(extras({ files: one, changedLines: 50 }), []);
    const eleven = Array.from({ length: 11 }, (_, i) => file(`docs/${i}.md`));
    assert.deepEqual(extras({ files: eleven }), ['comments']);
    assert.deepEqual(extras({ files: eleven.slice(1) }), []);
    assert.deepEqual(extras({ files: eleven, changedLines: 10 }), [], 'a change scope counts lines, not files');
  });

  it('caps the list at --max-reviewers, defaults first, and says why the rest were left out', () => {
    const files = [file('src/a.ts', 'try { f(); } catch (e) { log(e); }')];
    const r = route({ files, maxReviewers: 4 });
    assert.deepEqual(r.reviewers, ['security', 'logic', 'performance', 'types']);
    const capped = r.decisions.find((d) => d.reviewer === 'silent-failures')!;
    assert.equal(capped.routed, false);
    assert.match(capped.reason, /over --max-reviewers 4/);
    assert.deepEqual(route({ files, maxReviewers: 2 }).reviewers, ['security', 'logic']);
    assert.match(r.decisions.find((d) => d.reviewer === 'spec-compliance')!.reason, /no spec/);
  });

  it('recognises test files across languages', () => {
    for (const p of [
      'a.test.ts',
      'src/a.spec.tsx',
      'test_a.py',
      'a_test.py',
      'x_test.go',
      'FooTest.java',
      'FooTests.cs',
      'a_spec.rb',
      'tests/util.py',
      'src/__tests__/a.js',
    ])
      assert.ok(isTestFile(p), p);
    for (const p of ['a.ts', 'contest.py', 'latest.go', 'src/testing.ts']) assert.ok(!isTestFile(p), p);
  });
});
