/**
 * Per grammar: which syntax nodes are function-like definitions (and their name, kind, visibility), and
 * which open a named scope (class, impl, trait, object literal bound to a name) that qualifies the names
 * inside it. Declarations without a body (prototypes, abstract and interface signatures, TS overload
 * signatures, Python `@overload` stubs) are not functions to review and are not listed.
 */
import type { Node, Tree } from '@vscode/tree-sitter-wasm';
import type { Visibility } from '../../model/functions';

/** What encloses a node: nothing (top level), a named scope, or a function. */
export type Owner = 'top' | 'container' | 'function';

export interface FoundFunction {
  name: string;
  kind: string;
  visibility: Visibility;
  /** The node whose lines the function spans; the definition node itself when absent. */
  span?: Node;
}

export type Seen = { container: string } | { fn: FoundFunction } | null;
/** `scope` is the innermost enclosing name (class, function), if any. */
export type Rule = (node: Node, owner: Owner, scope?: string) => Seen;

/** A grammar's rule and the node types it looks at: a query hands back only those nodes (each a WASM round trip). */
export interface LanguageRules {
  types: ReadonlySet<string>;
  visit: Rule;
  /**
   * Per type, the query pattern (capturing `@node`) that hands back only the nodes of that type the rule can
   * see something in; `oneOf` spells the types given that the grammar has. A type without one is queried
   * whole. Each must match every node the rule does not dismiss: it saves the round trips, not a decision.
   */
  patterns?: Partial<Record<string, (oneOf: (types: Iterable<string>) => string) => string>>;
}
const rules = (types: Iterable<string>, visit: Rule, patterns?: LanguageRules['patterns']): LanguageRules => ({
  types: new Set(types),
  visit,
  ...(patterns ? { patterns } : {}),
});

const field = (node: Node, name: string) => node.childForFieldName(name);
const fieldText = (node: Node, name: string) => field(node, name)?.text ?? null;
const hasToken = (node: Node, token: string) => node.children.some((c) => c !== null && !c.isNamed && c.type === token);
const named = (node: Node) => node.namedChildren.filter((c): c is Node => c !== null);
/** `a::b`, `A.B`, `Foo<T>` → `a.b`, `A.B`, `Foo`: one spelling of qualified names across languages. */
const qualify = (text: string) =>
  text
    .replace(/<[^<>]*(<[^<>]*>[^<>]*)*>/g, '')
    .replace(/\s+/g, '')
    .replace(/::|->/g, '.');
const fn = (name: string | null, kind: string, visibility: Visibility, span?: Node): Seen =>
  name ? { fn: { name: qualify(name), kind, visibility, ...(span ? { span } : {}) } } : null;
const container = (name: string | null): Seen => (name ? { container: qualify(name) } : null);

// ---- TypeScript / JavaScript ----

const JS_FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);

/** Exported top-level bindings are public; other top-level ones internal; anything nested private. */
function jsBindingVisibility(node: Node, owner: Owner): Visibility {
  if (owner !== 'top') return 'private';
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (n.type === 'export_statement') return 'public';
    if (n.type === 'program' || n.type === 'statement_block') break;
  }
  return 'internal';
}

function jsMemberVisibility(node: Node, name: string): Visibility {
  const access = named(node).find((c) => c.type === 'accessibility_modifier')?.text;
  if (access === 'private' || name.startsWith('#')) return 'private';
  return access === 'protected' ? 'internal' : 'public';
}

function jsKey(node: Node): string | null {
  const key =
    field(node, 'name') ??
    field(node, 'key') ??
    field(node, 'property') ??
    named(node).find((c) => /property_identifier$/.test(c.type)) ??
    null;
  if (!key) return null;
  return key.type === 'string' ? key.text.slice(1, -1) : key.text;
}

const TEST_SUITES = new Set(['describe', 'suite', 'context']);
const TEST_CASES = new Set(['it', 'test', 'specify']);
const TEST_HOOKS = new Set(['before', 'after', 'beforeEach', 'afterEach', 'beforeAll', 'afterAll']);

/**
 * `describe('Cart', () => …)` names a scope, `it('adds', () => …)` is a test case (also `it.only`,
 * `test.each(rows)(…)`), a `beforeEach(() => …)` a hook: the functions of a test file.
 */
function jsTestCall(node: Node): Seen {
  const args = field(node, 'arguments');
  const callee = field(node, 'function');
  if (!args || !callee) return null;
  const head = callee.type === 'call_expression' ? field(callee, 'function') : callee;
  const base = (head?.type === 'member_expression' ? field(head, 'object') : head)?.text ?? '';
  const list = named(args);
  if (!list.some((a) => JS_FUNCTION_VALUES.has(a.type))) return null;
  const quoted = list[0]?.type === 'string' || list[0]?.type === 'template_string' ? list[0].text.slice(1, -1) : null;
  // `test('', …)` is named by its call: an empty name is one no record may carry (Step 2 copies the names it is given).
  const title = quoted === null ? null : quoted.trim() || base;
  if (TEST_SUITES.has(base)) return title === null ? null : { container: title };
  if (TEST_CASES.has(base)) return title === null ? null : { fn: { name: title, kind: 'test', visibility: 'private' } };
  return TEST_HOOKS.has(base) ? { fn: { name: base, kind: 'hook', visibility: 'private' } } : null;
}

const javascript: Rule = (node, owner) => {
  switch (node.type) {
    case 'call_expression':
      return jsTestCall(node);
    case 'function_declaration':
    case 'generator_function_declaration':
      return fn(fieldText(node, 'name'), 'function', jsBindingVisibility(node, owner));
    case 'class_declaration':
    case 'abstract_class_declaration':
    case 'class':
    case 'internal_module':
    case 'module':
      return container(fieldText(node, 'name'));
    case 'method_definition': {
      const name = jsKey(node);
      if (!name) return null;
      const kind =
        name === 'constructor' ? 'constructor' : hasToken(node, 'get') || hasToken(node, 'set') ? 'accessor' : 'method';
      return fn(name, kind, jsMemberVisibility(node, name));
    }
    case 'public_field_definition':
    case 'field_definition':
    case 'pair': {
      const value = field(node, 'value') ?? named(node).at(-1);
      const name = jsKey(node);
      if (value && JS_FUNCTION_VALUES.has(value.type))
        return fn(name, 'method', node.type === 'pair' ? 'public' : jsMemberVisibility(node, name ?? ''));
      // A nested object literal under a key qualifies the names inside it.
      return value?.type === 'object' && node.type === 'pair' ? container(name) : null;
    }
    case 'variable_declarator': {
      const value = field(node, 'value');
      const name = field(node, 'name');
      if (!value || name?.type !== 'identifier') return null;
      if (JS_FUNCTION_VALUES.has(value.type))
        return fn(
          name.text,
          value.type === 'arrow_function' ? 'arrow_function' : 'function',
          jsBindingVisibility(node, owner),
        );
      return value.type === 'object' || value.type === 'class' ? container(name.text) : null;
    }
    case 'assignment_expression': {
      const left = field(node, 'left');
      const right = field(node, 'right');
      if (!left || !right || !JS_FUNCTION_VALUES.has(right.type) || !/^(identifier|member_expression)$/.test(left.type))
        return null;
      const visibility: Visibility = /^(module\.)?exports\b/.test(left.text)
        ? 'public'
        : owner === 'top'
          ? 'internal'
          : 'private';
      return fn(left.text, right.type === 'arrow_function' ? 'arrow_function' : 'function', visibility);
    }
    case 'arrow_function':
    case 'function_expression':
    case 'function':
      // `export default () => …`: the module's default export.
      return node.parent?.type === 'export_statement' ? fn('default', 'function', 'public') : null;
    default:
      return null;
  }
};

// ---- Python ----

function pyVisibility(name: string): Visibility {
  if (/^__\w+__$/.test(name)) return 'public';
  return name.startsWith('__') ? 'private' : name.startsWith('_') ? 'internal' : 'public';
}

const python: Rule = (node, owner) => {
  switch (node.type) {
    case 'class_definition':
      return container(fieldText(node, 'name'));
    case 'function_definition': {
      const name = fieldText(node, 'name');
      const wrapper = node.parent?.type === 'decorated_definition' ? node.parent : null;
      const decorators = wrapper
        ? named(wrapper)
            .filter((c) => c.type === 'decorator')
            .map((d) => d.text.slice(1).trim())
        : [];
      if (decorators.some((d) => /^(typing\.)?overload$/.test(d))) return null;
      const accessor = decorators.some(
        (d) => d === 'property' || /\.(setter|getter|deleter)$/.test(d) || d === 'cached_property',
      );
      const kind =
        owner !== 'container' ? 'function' : name === '__init__' ? 'constructor' : accessor ? 'accessor' : 'method';
      return fn(name, kind, owner === 'function' ? 'private' : pyVisibility(name ?? ''), wrapper ?? undefined);
    }
    case 'assignment': {
      const left = field(node, 'left');
      return field(node, 'right')?.type === 'lambda' && left?.type === 'identifier'
        ? fn(left.text, 'lambda', owner === 'function' ? 'private' : pyVisibility(left.text))
        : null;
    }
    default:
      return null;
  }
};

// ---- C / C++ ----

const CPP_WRAPPERS = new Set([
  'pointer_declarator',
  'reference_declarator',
  'parenthesized_declarator',
  'attributed_declarator',
]);

function cppFunctionName(node: Node): string | null {
  let d = field(node, 'declarator');
  while (d && CPP_WRAPPERS.has(d.type)) d = field(d, 'declarator') ?? named(d).at(-1) ?? null;
  if (d?.type !== 'function_declarator') return null;
  const name = field(d, 'declarator');
  if (!name) return null;
  // A macro-made definition such as `TEST_F(Suite, Case) { … }`: its arguments are its name.
  if (!field(node, 'type') && /^[A-Z][A-Z0-9_]*$/.test(name.text)) return d.text.replace(/\s+/g, ' ');
  return name.text;
}

/**
 * Per class body (by node id, per tree), the access each member is under: one pass over the body's members
 * when the first is asked about. Walking back from every member to its specifier was quadratic in a class's
 * size, and C++ headers hold classes of thousands of members.
 */
const accessInBodies = new WeakMap<Tree, Map<number, Map<number, Visibility>>>();

/** The access in force at a class member: the last `public:`/`private:`/`protected:` before it, else the default. */
function cppAccess(node: Node): Visibility {
  const body = node.parent;
  if (!body) return 'public';
  let bodies = accessInBodies.get(node.tree);
  if (!bodies) accessInBodies.set(node.tree, (bodies = new Map()));
  let members = bodies.get(body.id);
  if (!members) {
    members = new Map();
    let access: Visibility | undefined;
    for (const member of named(body)) {
      if (member.type === 'access_specifier') {
        const text = member.text;
        access = text.startsWith('public') ? 'public' : text.startsWith('private') ? 'private' : 'internal';
      } else if (access) members.set(member.id, access);
    }
    bodies.set(body.id, members);
  }
  return members.get(node.id) ?? (body.parent?.type === 'class_specifier' ? 'private' : 'public');
}

const cpp: Rule = (node, owner, scope) => {
  switch (node.type) {
    case 'class_specifier':
    case 'struct_specifier':
    case 'union_specifier':
      return field(node, 'body') ? container(fieldText(node, 'name')) : null;
    case 'function_definition': {
      const raw = cppFunctionName(node);
      // `= default` / `= delete` members have no body to review.
      if (!raw || field(node, 'body')?.type !== 'compound_statement') return null;
      const name = qualify(raw);
      const last = name.slice(name.lastIndexOf('.') + 1);
      const inClass = owner === 'container';
      const method = inClass || name.includes('.');
      const ownerName = name.includes('.')
        ? name.slice(0, name.lastIndexOf('.')).split('.').at(-1)
        : inClass
          ? scope
          : null;
      const kind = last.startsWith('~')
        ? 'destructor'
        : last === ownerName
          ? 'constructor'
          : method
            ? 'method'
            : 'function';
      const isStatic = named(node).some((c) => c.type === 'storage_class_specifier' && c.text === 'static');
      const visibility: Visibility = inClass
        ? cppAccess(node.parent?.type === 'template_declaration' ? node.parent : node)
        : owner === 'function'
          ? 'private'
          : isStatic
            ? 'internal'
            : 'public';
      const span = node.parent?.type === 'template_declaration' ? node.parent : undefined;
      return fn(raw, inClass && kind === 'function' ? 'method' : kind, visibility, span);
    }
    case 'init_declarator':
      return field(node, 'value')?.type === 'lambda_expression'
        ? fn(fieldText(node, 'declarator'), 'lambda', owner === 'top' ? 'internal' : 'private')
        : null;
    default:
      return null;
  }
};

// ---- Java / C# ----

function modifierVisibility(node: Node, fallback: Visibility): Visibility {
  const words = named(node)
    .filter((c) => c.type === 'modifiers' || c.type === 'modifier')
    .map((c) => c.text)
    .join(' ');
  if (/\bpublic\b/.test(words)) return 'public';
  if (/\bprivate\b/.test(words)) return 'private';
  return /\b(protected|internal)\b/.test(words) ? 'internal' : fallback;
}

const JAVA_CONTAINERS = new Set([
  'class_declaration',
  'interface_declaration',
  'enum_declaration',
  'record_declaration',
  'annotation_type_declaration',
]);
const java: Rule = (node, owner) => {
  if (JAVA_CONTAINERS.has(node.type)) return container(fieldText(node, 'name'));
  switch (node.type) {
    case 'method_declaration':
      return field(node, 'body') ? fn(fieldText(node, 'name'), 'method', modifierVisibility(node, 'internal')) : null;
    case 'constructor_declaration':
    case 'compact_constructor_declaration':
      return fn(fieldText(node, 'name'), 'constructor', modifierVisibility(node, 'internal'));
    case 'variable_declarator':
      return field(node, 'value')?.type === 'lambda_expression'
        ? fn(
            fieldText(node, 'name'),
            'lambda',
            owner === 'container' ? modifierVisibility(node.parent ?? node, 'internal') : 'private',
          )
        : null;
    default:
      return null;
  }
};

const CSHARP_CONTAINERS = new Set([
  'class_declaration',
  'struct_declaration',
  'interface_declaration',
  'record_declaration',
  'record_struct_declaration',
  'enum_declaration',
]);
const csharp: Rule = (node) => {
  if (CSHARP_CONTAINERS.has(node.type)) return container(fieldText(node, 'name'));
  const body = field(node, 'body');
  switch (node.type) {
    case 'method_declaration':
      return body ? fn(fieldText(node, 'name'), 'method', modifierVisibility(node, 'private')) : null;
    case 'constructor_declaration':
      return body ? fn(fieldText(node, 'name'), 'constructor', modifierVisibility(node, 'private')) : null;
    case 'destructor_declaration':
      return body ? fn(`~${fieldText(node, 'name') ?? ''}`, 'destructor', 'private') : null;
    case 'operator_declaration': {
      const op = node.children.find(
        (c) =>
          c !== null &&
          !c.isNamed &&
          c.type !== 'operator' &&
          c.type !== '(' &&
          /^[^\w\s]+$|^true$|^false$/.test(c.type),
      );
      return body ? fn(`operator${op?.type ?? ''}`, 'operator', modifierVisibility(node, 'private')) : null;
    }
    case 'local_function_statement':
      return body ? fn(fieldText(node, 'name'), 'function', 'private') : null;
    case 'property_declaration': {
      const accessors = field(node, 'accessors');
      const bodied =
        (accessors ? named(accessors) : []).some((a) => field(a, 'body')) ||
        field(node, 'value')?.type === 'arrow_expression_clause';
      return bodied ? fn(fieldText(node, 'name'), 'accessor', modifierVisibility(node, 'private')) : null;
    }
    default:
      return null;
  }
};

// ---- Go ----

const goVisibility = (name: string | null): Visibility => (name && /^[A-Z]/.test(name) ? 'public' : 'internal');
const go: Rule = (node) => {
  switch (node.type) {
    case 'function_declaration':
      return fn(fieldText(node, 'name'), 'function', goVisibility(fieldText(node, 'name')));
    case 'method_declaration': {
      const receiver = field(node, 'receiver');
      const type = receiver ? named(receiver)[0] && field(named(receiver)[0]!, 'type') : null;
      const recv = type?.text.replace(/^\*/, '').replace(/\[.*$/, '') ?? null;
      const name = fieldText(node, 'name');
      return fn(recv && name ? `${recv}.${name}` : name, 'method', goVisibility(name));
    }
    case 'short_var_declaration':
    case 'assignment_statement': {
      const left = field(node, 'left');
      const right = field(node, 'right');
      const value = right && named(right).length === 1 ? named(right)[0] : null;
      return value?.type === 'func_literal' && left && named(left).length === 1
        ? fn(left.text, 'closure', 'private')
        : null;
    }
    case 'var_spec': {
      const value = field(node, 'value');
      return value && named(value)[0]?.type === 'func_literal'
        ? fn(fieldText(node, 'name'), 'closure', goVisibility(fieldText(node, 'name')))
        : null;
    }
    default:
      return null;
  }
};

// ---- Rust ----

function rustVisibility(node: Node): Visibility {
  const v = named(node).find((c) => c.type === 'visibility_modifier')?.text;
  return v === undefined ? 'private' : v === 'pub' ? 'public' : 'internal';
}

const rust: Rule = (node, owner) => {
  switch (node.type) {
    case 'impl_item':
      return container(fieldText(node, 'type'));
    case 'trait_item':
    case 'mod_item':
      return field(node, 'body') ? container(fieldText(node, 'name')) : null;
    case 'function_item':
      return fn(
        fieldText(node, 'name'),
        owner === 'container' && node.parent?.parent?.type !== 'mod_item' ? 'method' : 'function',
        rustVisibility(node),
      );
    case 'let_declaration':
      return field(node, 'value')?.type === 'closure_expression'
        ? fn(fieldText(node, 'pattern'), 'closure', 'private')
        : null;
    default:
      return null;
  }
};

// ---- Ruby, PHP, Bash ----

/** Ruby: `private` / `protected` / `public` on a line of its own changes the visibility of the methods after it. */
function rubyVisibility(node: Node): Visibility {
  for (let s = node.previousNamedSibling; s; s = s.previousNamedSibling) {
    if (s.type === 'identifier' && /^(private|protected|public)$/.test(s.text))
      return s.text === 'public' ? 'public' : s.text === 'private' ? 'private' : 'internal';
  }
  return 'public';
}

const ruby: Rule = (node, owner) => {
  switch (node.type) {
    case 'class':
    case 'module':
      return container(fieldText(node, 'name'));
    case 'method':
      return fn(fieldText(node, 'name'), owner === 'container' ? 'method' : 'function', rubyVisibility(node));
    case 'singleton_method':
      return fn(fieldText(node, 'name'), 'method', 'public');
    default:
      return null;
  }
};

const PHP_CONTAINERS = new Set(['class_declaration', 'interface_declaration', 'trait_declaration', 'enum_declaration']);
const php: Rule = (node) => {
  if (PHP_CONTAINERS.has(node.type)) return container(fieldText(node, 'name'));
  if (node.type === 'function_definition') return fn(fieldText(node, 'name'), 'function', 'public');
  if (node.type !== 'method_declaration' || !field(node, 'body')) return null;
  const name = fieldText(node, 'name');
  const access = named(node).find((c) => c.type === 'visibility_modifier')?.text;
  return fn(
    name,
    name === '__construct' ? 'constructor' : 'method',
    access === 'private' ? 'private' : access === 'protected' ? 'internal' : 'public',
  );
};

const bash: Rule = (node) =>
  node.type === 'function_definition' ? fn(fieldText(node, 'name'), 'function', 'public') : null;

const JS_TYPES = [
  'call_expression',
  'function_declaration',
  'generator_function_declaration',
  'class_declaration',
  'abstract_class_declaration',
  'class',
  'internal_module',
  'module',
  'method_definition',
  'public_field_definition',
  'field_definition',
  'pair',
  'variable_declarator',
  'assignment_expression',
  ...JS_FUNCTION_VALUES,
];
/** The JavaScript patterns: a call with a function among its arguments, a binding or key to a function value. */
const fnValue = (oneOf: (types: Iterable<string>) => string) => oneOf(JS_FUNCTION_VALUES);
const exported = (type: string) => () => `(export_statement (${type}) @node)`;
const js = rules(JS_TYPES, javascript, {
  call_expression: (oneOf) => `(call_expression arguments: (arguments ${fnValue(oneOf)})) @node`,
  pair: (oneOf) => `(pair value: ${oneOf([...JS_FUNCTION_VALUES, 'object'])}) @node`,
  variable_declarator: (oneOf) =>
    `(variable_declarator name: (identifier) value: ${oneOf([...JS_FUNCTION_VALUES, 'object', 'class'])}) @node`,
  assignment_expression: (oneOf) =>
    `(assignment_expression left: ${oneOf(['identifier', 'member_expression'])} right: ${fnValue(oneOf)}) @node`,
  ...Object.fromEntries([...JS_FUNCTION_VALUES].map((t) => [t, exported(t)])),
});

export const RULES: Record<string, LanguageRules> = {
  typescript: js,
  tsx: js,
  javascript: js,
  python: rules(['class_definition', 'function_definition', 'assignment'], python, {
    assignment: () => '(assignment right: (lambda)) @node',
  }),
  cpp: rules(
    ['class_specifier', 'struct_specifier', 'union_specifier', 'function_definition', 'init_declarator'],
    cpp,
    {
      // A `struct stat *` names a type: only a specifier with a body opens a scope.
      class_specifier: () => '(class_specifier body: (_)) @node',
      struct_specifier: () => '(struct_specifier body: (_)) @node',
      union_specifier: () => '(union_specifier body: (_)) @node',
      function_definition: () => '(function_definition body: (compound_statement)) @node',
      init_declarator: () => '(init_declarator value: (lambda_expression)) @node',
    },
  ),
  java: rules(
    [
      ...JAVA_CONTAINERS,
      'method_declaration',
      'constructor_declaration',
      'compact_constructor_declaration',
      'variable_declarator',
    ],
    java,
  ),
  'c-sharp': rules(
    [
      ...CSHARP_CONTAINERS,
      'method_declaration',
      'constructor_declaration',
      'destructor_declaration',
      'operator_declaration',
      'local_function_statement',
      'property_declaration',
    ],
    csharp,
  ),
  go: rules(
    ['function_declaration', 'method_declaration', 'short_var_declaration', 'assignment_statement', 'var_spec'],
    go,
  ),
  rust: rules(['impl_item', 'trait_item', 'mod_item', 'function_item', 'let_declaration'], rust),
  ruby: rules(['class', 'module', 'method', 'singleton_method'], ruby),
  php: rules([...PHP_CONTAINERS, 'function_definition', 'method_declaration'], php),
  bash: rules(['function_definition'], bash),
};
