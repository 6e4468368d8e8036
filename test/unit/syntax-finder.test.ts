import * as assert from 'node:assert/strict';
import { functionInventory } from '../../src/scope/syntax/finder';

/** `name kind visibility start-end` per function, in source order. */
async function rows(path: string, code: string): Promise<string[]> {
  const inv = await functionInventory(path, code);
  assert.equal(inv?.parser, 'syntax', `${path} should be parsed by the syntax tree`);
  return inv.functions.map((f) => `${f.qualified_name} ${f.kind} ${f.visibility} ${f.start_line}-${f.end_line}`);
}

describe('syntax-tree function finder', function () {
  // The first parse of a language compiles its grammar.
  this.timeout(30_000);

  it('TypeScript: nested classes, overloads, decorators, generics, arrow and object-literal methods', async () => {
    const code = `import { x } from './x';

export class Repo<T extends { id: string }> {
  private items = new Map<string, T>();

  constructor(private readonly name: string) {}

  @logged()
  @cached
  get(id: string): T | undefined {
    return this.items.get(id);
  }

  find(id: string): T;
  find(id: number): T;
  find(id: string | number): T {
    const key = String(id);
    return this.items.get(key)!;
  }

  #secret = (v: T): T => v;

  protected static of<U extends { id: string }>(name: string): Repo<U> {
    class Inner {
      run() {
        return 1;
      }
    }
    return new Repo<U>(name);
  }
}

function helper(a: number) {
  function inner() {
    return a;
  }
  return inner();
}

export const handlers = {
  onSave(): void {},
  onLoad: async () => {},
};

export default function () {}
`;
    assert.deepEqual(await rows('src/repo.ts', code), [
      'Repo.constructor constructor public 6-6',
      'Repo.get method public 8-12',
      'Repo.find method public 16-19',
      'Repo.#secret method private 21-21',
      'Repo.of method internal 23-30',
      'Repo.of.Inner.run method public 25-27',
      'helper function internal 33-38',
      'helper.inner function private 34-36',
      'handlers.onSave method public 41-41',
      'handlers.onLoad method public 42-42',
      'default function public 45-45',
    ]);
  });

  it('TSX and JavaScript: components, function expressions bound to names, prototype methods', async () => {
    const tsx = `export const Button = ({ label }: { label: string }) => {
  const onClick = () => console.log(label);
  return <button onClick={onClick}>{label}</button>;
};
`;
    assert.deepEqual(await rows('ui/Button.tsx', tsx), [
      'Button arrow_function public 1-4',
      'Button.onClick arrow_function private 2-2',
    ]);
    const js = `'use strict';
function Widget(el) {
  this.el = el;
}
Widget.prototype.render = function () {
  return this.el;
};
module.exports.make = (el) => new Widget(el);
const run = function* gen() { yield 1; };
`;
    assert.deepEqual(await rows('lib/widget.js', js), [
      'Widget function internal 2-4',
      'Widget.prototype.render function internal 5-7',
      'module.exports.make arrow_function public 8-8',
      'run function internal 9-9',
    ]);
  });

  it('TypeScript tests: suites qualify their cases and hooks, whichever runner spelling', async () => {
    const code = `describe('Cart total', () => {
  beforeEach(() => {
    reset();
  });
  it('adds 1.5 and 2', async () => {
    expect(total()).toBe(3.5);
  });
  test.each([1, 2])('counts %d', (n) => {});
  it.skip('later', function () {});
});
test("", () => {});
describe(' ', () => { it('', () => {}); });
`;
    assert.deepEqual(await rows('test/cart.test.ts', code), [
      'Cart total.beforeEach hook private 2-4',
      'Cart total.adds 1.5 and 2 test private 5-7',
      'Cart total.counts %d test private 8-8',
      'Cart total.later test private 9-9',
      // A blank title is named by its call: no row without a name (Step 2 copies the names, its record needs one).
      'test test private 11-11',
      'describe.it test private 12-12',
    ]);
  });

  it('Python: decorators, nested classes, properties, typing overloads, lambdas and closures', async () => {
    const code = `from typing import overload


class Client:
    """A client."""

    def __init__(self, url):
        self.url = url

    @property
    def host(self):
        return self.url

    @overload
    def get(self, key: int) -> int: ...
    @overload
    def get(self, key: str) -> str: ...
    def get(self, key):
        return key

    class Error(Exception):
        def _describe(self):
            def fmt(x):
                return str(x)
            return fmt(self)


@retry(times=3)
async def fetch(client, path):
    return await client.get(path)

normalize = lambda s: s.strip()
`;
    assert.deepEqual(await rows('pkg/client.py', code), [
      'Client.__init__ constructor public 7-8',
      'Client.host accessor public 10-12',
      'Client.get method public 18-19',
      'Client.Error._describe method internal 22-25',
      'Client.Error._describe.fmt function private 23-24',
      'fetch function public 28-30',
      'normalize lambda public 32-32',
    ]);
  });

  it('C++: the access of a member is the last specifier above it in its own class, else the default of the class', async () => {
    const code = `class Outer {
  int hidden() { return 0; }
 public:
  template <typename T> T get() { return T(); }
  struct Inner {
    int open() { return 1; }
   protected:
    int guarded() { return 2; }
  };
  int shown() { return 3; }
 private:
  int again() { return 4; }
};
`;
    assert.deepEqual(await rows('src/outer.hpp', code), [
      'Outer.hidden method private 2-2',
      'Outer.get method public 4-4',
      'Outer.Inner.open method public 6-6',
      'Outer.Inner.guarded method internal 8-8',
      'Outer.shown method public 10-10',
      'Outer.again method private 12-12',
    ]);
  });

  it('C: #ifdef-split definitions, static functions, pointer returns, prototypes left out', async () => {
    const code = `#include <stdio.h>

static int count(const char *s);

#ifdef _WIN32
static int count(const char *s)
{
    return 0;
}
#else
static int count(const char *s)
{
    int n = 0;
    while (*s++) n++;
    return n;
}
#endif

const char *
name_of(int id)
{
    return id ? "a" : "b";
}
`;
    assert.deepEqual(await rows('src/count.c', code), [
      'count function internal 6-9',
      'count#2 function internal 11-16',
      'name_of function public 19-23',
    ]);
  });

  it('C++: templates, access sections, out-of-class methods, operators, lambdas, test macros', async () => {
    const code = `namespace util {

template <typename T>
class Stack {
 public:
  Stack() = default;
  explicit Stack(int n) { items_.reserve(n); }
  void push(const T& v) { items_.push_back(v); }
 private:
  bool full() const { return false; }
  std::vector<T> items_;
};

struct Point {
  int x;
  int norm() const { return x; }
};

}  // namespace util

int util::Counter::next() {
  auto bump = [this](int by) { return value_ += by; };
  return bump(1);
}

bool operator==(const Point& a, const Point& b) { return a.x == b.x; }

TEST(StackTest, PushesValues) {
  EXPECT_TRUE(true);
}
`;
    assert.deepEqual(await rows('src/stack.cc', code), [
      'Stack.Stack constructor public 7-7',
      'Stack.push method public 8-8',
      'Stack.full method private 10-10',
      'Point.norm method public 16-16',
      'util.Counter.next method public 21-24',
      'util.Counter.next.bump lambda private 22-22',
      'operator== function public 26-26',
      'TEST(StackTest,PushesValues) function public 28-30',
    ]);
  });

  it('Java: generics, overloads, interfaces with default methods, lambdas, records', async () => {
    const code = `package a;

public class Cache<K, V> {
  private final Runnable onEvict = () -> {
    System.out.println("evicted");
  };

  public Cache() {}

  @Override
  public V get(K key) { return null; }

  V get(K key, V fallback) { return fallback; }

  interface Loader<K> {
    K load(String s);
    default K loadOr(String s) { return load(s); }
  }

  record Entry(String k) {
    Entry {}
  }
}
`;
    assert.deepEqual(await rows('src/main/java/a/Cache.java', code), [
      'Cache.onEvict lambda private 4-6',
      'Cache.Cache constructor public 8-8',
      'Cache.get method public 10-11',
      'Cache.get#2 method internal 13-13',
      'Cache.Loader.loadOr method internal 17-17',
      'Cache.Entry.Entry constructor internal 21-21',
    ]);
  });

  it('Go, Rust, C#, Ruby, PHP and Bash: methods by receiver, impls and traits, accessors, visibility', async () => {
    assert.deepEqual(
      await rows(
        'srv/handler.go',
        `package srv

func (s *Server[T]) Handle(w Writer) error {
	done := func() { s.n++ }
	done()
	return nil
}

func parse(b []byte) int { return 0 }
`,
      ),
      ['Server.Handle method public 3-7', 'Server.Handle.done closure private 4-4', 'parse function internal 9-9'],
    );
    assert.deepEqual(
      await rows(
        'src/lib.rs',
        `impl<T: Clone> Queue<T> {
    pub fn push(&mut self, v: T) {}
    fn grow(&mut self) {}
}

trait Named {
    fn name(&self) -> String;
    fn greet(&self) -> String { format!("hi {}", self.name()) }
}

#[cfg(test)]
#[test]
pub(crate) fn check() {
    let twice = |x: i32| x * 2;
}
`,
      ),
      [
        'Queue.push method public 2-2',
        'Queue.grow method private 3-3',
        'Named.greet method private 8-8',
        'check function internal 11-15',
        'check.twice closure private 14-14',
      ],
    );
    assert.deepEqual(
      await rows(
        'Svc.cs',
        `namespace App {
  public class Svc {
    public int Count { get { return 1; } }
    public abstract void Hook();
    private void Run() {
      int Local() => 1;
    }
  }
}
`,
      ),
      ['Svc.Count accessor public 3-3', 'Svc.Run method private 5-7', 'Svc.Run.Local function private 6-6'],
    );
    assert.deepEqual(
      await rows(
        'lib/acct.rb',
        `module Bank
  class Account
    def deposit(n); end
    def self.open; end
    private
    def audit; end
  end
end
`,
      ),
      [
        'Bank.Account.deposit method public 3-3',
        'Bank.Account.open method public 4-4',
        'Bank.Account.audit method private 6-6',
      ],
    );
    assert.deepEqual(
      await rows(
        'a.php',
        `<?php\nfunction f() {}\nclass A {\n  private function m() {}\n  abstract protected function n();\n}\n`,
      ),
      ['f function public 2-2', 'A.m method private 4-4'],
    );
    assert.deepEqual(await rows('run.sh', `#!/bin/sh\nusage() {\n  echo hi\n}\n`), ['usage function public 2-4']);
  });

  it('starts a function at its leading doc comment, not at a comment a blank line or a statement away', async () => {
    const ts = `const a = 1; // not a doc comment
function plain() {}

/**
 * Adds two numbers.
 */
export function add(x: number, y: number) {
  return x + y;
}
// a banner

function spaced() {}
class K {
  /** Doc. */
  @dec
  m() {}
}
`;
    assert.deepEqual(await rows('src/a.ts', ts), [
      'plain function internal 2-2',
      'add function public 4-9',
      'spaced function internal 12-12',
      'K.m method public 14-16',
    ]);
    const inv = await functionInventory('src/a.ts', ts);
    assert.equal(inv?.functions.find((f) => f.qualified_name === 'add')?.signature_line, 7);
    const py = `# Greets.\n@cached\ndef hello():\n    pass\n`;
    assert.deepEqual(await rows('a.py', py), ['hello function public 1-4']);
    const rs = `/// Doubles.\n/// Really.\n#[inline]\npub fn double(x: i32) -> i32 {\n    x * 2\n}\n`;
    assert.deepEqual(await rows('a.rs', rs), ['double function public 1-6']);
    const go = `package a\n\n// Sum adds.\nfunc Sum(a, b int) int {\n\treturn a + b\n}\n`;
    assert.deepEqual(await rows('a.go', go), ['Sum function public 3-6']);
  });

  it('has no inventory for a language without a grammar, nor for prose', async () => {
    const kt = await functionInventory('Main.kt', 'fun main() {}\n');
    assert.equal(kt, null);
    assert.equal(await functionInventory('README.md', '# Title\n'), null);
  });
});
