/**
 * What each rule id means, for the people reading a finding: the staged pipeline's rules (A1–A8 per
 * function, F1–F3 per file, G1–G4 across files) and lens mode's reviewers, whose name is the rule id of
 * their findings. Diagnostics link to a page per rule (rendered from this catalog, shipped in media/rules/),
 * hovers and reports name the rule, SARIF carries it as rule metadata.
 */

export type RuleScope = 'function' | 'file' | 'cross-file' | 'lens';

export interface RuleInfo {
  id: string;
  /** A few words, as a title. */
  name: string;
  scope: RuleScope;
  /** One sentence: what the rule looks for. */
  summary: string;
  /** What a reviewer checks, in a few short points. */
  checks: string[];
  /** When a finding is a must-fix flag; null: the rule is advisory only (should fix or nice to have). */
  flag: string | null;
  /** When it is only advisory. */
  advisory: string;
  /** A small illustration: the kind of code it catches, and the finding it would give. */
  example: { code: string; finding: string };
}

export const RULES: readonly RuleInfo[] = [
  {
    id: 'A1',
    name: 'Bugs',
    scope: 'function',
    summary:
      'Logic that does the wrong thing at runtime: a wrong branch, an off-by-one bound, an unguarded null, a path that returns nothing.',
    checks: [
      'every branch does the right thing with the right type',
      'loops behave at zero, one, the last and the largest element',
      'optional values are checked before use',
      'compound expressions bind the way the author meant',
      'every return path gives back the same kind of value',
    ],
    flag: 'the function will likely misbehave on input it can realistically get',
    advisory: 'it works today but a plausible change of input would break it',
    example: {
      code: 'for (let i = 0; i <= items.length; i++) total += items[i].price;',
      finding: 'stop the loop at items.length (the last pass reads past the end and adds undefined)',
    },
  },
  {
    id: 'A2',
    name: 'Contract fidelity',
    scope: 'function',
    summary:
      'The function does what its name, documentation and role promise, and nothing the caller would not expect.',
    checks: [
      'the body matches the name, the doc comment and the stated role',
      'preconditions are checked at entry',
      "arguments are not changed behind the caller's back",
      'side effects are visible from the signature',
    ],
    flag: "it contradicts its name or documentation, or quietly changes the caller's data",
    advisory: 'a documented precondition is not enforced, or the name has drifted a little',
    example: {
      code: 'function sorted(list) { return list.sort(); }',
      finding: "sort a copy (sorted() reorders the caller's array in place)",
    },
  },
  {
    id: 'A3',
    name: 'Single responsibility',
    scope: 'function',
    summary: 'One function, one job, and a name that says which.',
    checks: [
      'its job fits one sentence without "and"',
      'no more than about four parameters',
      'no boolean switch that turns one body into two functions',
      'the name describes what the code really does',
    ],
    flag: 'it does two unrelated jobs, or its name actively misleads',
    advisory: 'a long parameter list, or a name that fits only loosely',
    example: {
      code: 'function saveUser(user, sendEmail) { db.insert(user); if (sendEmail) mailer.welcome(user); }',
      finding: 'move the welcome mail out of saveUser (the flag makes one function do two jobs)',
    },
  },
  {
    id: 'A4',
    name: 'Resource management',
    scope: 'function',
    summary: 'Everything acquired (files, sockets, locks, handles) is released on every way out.',
    checks: [
      'list what is acquired',
      'release happens on early returns, errors and exceptions too',
      'scoped cleanup (using, with, defer, finally) where the language has it',
      'ownership is clear when a resource leaves the function',
    ],
    flag: 'a reachable path leaks the resource',
    advisory: 'cleanup is manual and correct, but a scoped guard would be safer',
    example: {
      code: 'const fd = openSync(p); if (!valid(p)) return null; closeSync(fd);',
      finding: 'close fd before the early return (the invalid path leaks a descriptor)',
    },
  },
  {
    id: 'A5',
    name: 'Error handling',
    scope: 'function',
    summary: 'Calls that can fail have a visible error path; nothing is swallowed.',
    checks: [
      'list the calls that can fail',
      'each error is checked, handled or passed on',
      'no empty catch blocks or ignored return codes',
      'errors keep enough context to act on',
    ],
    flag: 'an error is swallowed where it affects correctness or data',
    advisory: 'the error is handled but loses the context a reader needs',
    example: {
      code: 'try { await save(order); } catch {}',
      finding: 'report or rethrow the save error (a failed save is silently treated as success)',
    },
  },
  {
    id: 'A6',
    name: 'Readability',
    scope: 'function',
    summary: 'The function reads top to bottom: shallow nesting, sensible length, names that say what they hold.',
    checks: [
      'nesting deeper than three levels',
      'more than about forty lines',
      'local names that hide intent',
      'indirection that adds nothing',
    ],
    flag: null,
    advisory: 'a specific change, at a specific place, would make the code clearly easier to follow',
    example: {
      code: 'if (a) { if (b) { if (c) { if (d) { … } } } }',
      finding: 'return early on !a and !b (four levels of nesting hide the main path)',
    },
  },
  {
    id: 'A7',
    name: 'Concurrency',
    scope: 'function',
    summary:
      'Shared state is protected and locks are taken in a consistent order. Only checked where the file has concurrency.',
    checks: [
      'shared mutable state without synchronisation',
      'locks taken in the same order everywhere',
      'atomics that assume more ordering than they give',
      'mutable references held across an await',
    ],
    flag: 'a race or a deadlock on a reachable path',
    advisory: 'synchronisation is correct but coarser than it needs to be',
    example: {
      code: 'if (!cache.has(k)) { const v = await load(k); cache.set(k, v); }',
      finding: 'share the pending load per key (two concurrent calls both load and the later one wins)',
    },
  },
  {
    id: 'A8',
    name: 'Testability',
    scope: 'function',
    summary: 'The function can be tested by giving it inputs and checking its outputs.',
    checks: [
      'hidden inputs: globals, singletons, environment, clock, randomness',
      'I/O mixed with the computation',
      'a test would need a small production environment',
    ],
    flag: null,
    advisory: 'mixed I/O and logic, or a hidden dependency, makes a unit test needlessly hard',
    example: {
      code: 'function isExpired(token) { return token.exp < Date.now() / 1000; }',
      finding: 'take the current time as a parameter (the hidden clock makes expiry untestable)',
    },
  },
  {
    id: 'F1',
    name: 'Documentation consistency',
    scope: 'file',
    summary: "The file's public surface is documented consistently, and the docs describe what the code does now.",
    checks: [
      'public functions and types are either all documented or none',
      'doc comments match current behaviour',
      'documented parameter names match the real ones',
    ],
    flag: 'a doc comment says the opposite of what the code does',
    advisory: 'only part of the public surface is documented, or parameter names drifted',
    example: {
      code: '/** Returns null when missing. */ function find(id) { … throw new NotFound(id); }',
      finding: 'say that find throws NotFound (the doc promises null, callers check for null)',
    },
  },
  {
    id: 'F2',
    name: 'Formatting',
    scope: 'file',
    summary: 'One consistent style inside the file, and no jarring difference from its companion.',
    checks: [
      'indentation is consistent',
      'brace placement, line length and import order match the companion',
      'no mixed tabs and spaces, no stray trailing whitespace',
    ],
    flag: null,
    advisory: 'the file mixes styles, or departs visibly from its companion',
    example: {
      code: '\tconst a = 1;\n    const b = 2;',
      finding: 'indent with one style (tabs and spaces are mixed in the same block)',
    },
  },
  {
    id: 'F3',
    name: 'Duplication within a file',
    scope: 'file',
    summary: 'The same logic is not written out twice in one file.',
    checks: [
      'functions with near-identical bodies',
      'boilerplate that one helper could carry',
      'copy-paste with small variations',
    ],
    flag: null,
    advisory: 'a specific repeated block, with both places and where a shared helper would go',
    example: {
      code: 'function taxDE(p) { return round(p * 1.19, 2); }\nfunction taxFR(p) { return round(p * 1.2, 2); }',
      finding: 'use one tax(price, rate) helper (the two functions differ only in the rate)',
    },
  },
  {
    id: 'G1',
    name: 'Duplication across files',
    scope: 'cross-file',
    summary: 'The same logic, validation or constant is not implemented separately in several files.',
    checks: [
      'one algorithm or validation repeated in several files',
      'a shared constant defined more than once',
      'a utility rewritten instead of imported',
    ],
    flag: 'duplicated business logic or validation where a fix to one copy would have to be repeated in the others',
    advisory: 'duplicated utilities or constants that could live in one place',
    example: {
      code: 'cart.ts and checkout.ts both compute the VAT as price * 0.19',
      finding: 'compute VAT in one module (a rate change would have to be made twice)',
    },
  },
  {
    id: 'G2',
    name: 'Naming coherence',
    scope: 'cross-file',
    summary: 'One concept has one name across the codebase, and one name means one thing.',
    checks: [
      'one concept under several names (user_id, userId, uid)',
      'one name used for different things',
      'public naming conventions consistent between modules',
    ],
    flag: 'the same name means different things in different modules and misleads',
    advisory: 'inconsistent casing or abbreviations across module boundaries',
    example: {
      code: 'price is in cents in cart.ts and in euros in invoice.ts',
      finding: 'name the cent amounts priceCents (the same name carries two units)',
    },
  },
  {
    id: 'G3',
    name: 'API design',
    scope: 'cross-file',
    summary: 'Modules talk through contracts that are easy to use correctly and hard to use wrongly.',
    checks: [
      'internal types or details leaking across a module boundary',
      'callers needing to know more than they should',
      'coupling to concrete types where a small interface would do',
    ],
    flag: 'internal state handed out for mutation without clear ownership, or an API that silently does the wrong thing on plausible input',
    advisory: 'an interface wider than it needs, or callers coupled to internals',
    example: {
      code: 'Cart exposes its items array; checkout.ts pushes into it directly',
      finding: 'add Cart.add() and stop exposing the array (callers bypass the quantity checks)',
    },
  },
  {
    id: 'G4',
    name: 'Responsibility leakage',
    scope: 'cross-file',
    summary: 'Each module owns its invariants; no rule is kept half in one file and half in another.',
    checks: [
      'an invariant maintained partly in two modules',
      'work done in a file whose stated job is something else',
      'high-level orchestration mixed with low-level I/O at a boundary',
    ],
    flag: 'a split invariant where a change in one module silently breaks the other',
    advisory: 'mild overlap, or work that would sit better in another module',
    example: {
      code: 'cart.ts caps quantities at 99; checkout.ts assumes the cap when sizing a buffer',
      finding: 'let cart.ts export the cap and checkout.ts use it (the two halves can drift apart)',
    },
  },
  // Lens mode: the reviewer that raised a finding is its rule.
  {
    id: 'security',
    name: 'Security',
    scope: 'lens',
    summary: 'Injection, broken authentication or authorisation, exposed secrets or data, misused cryptography.',
    checks: [
      'untrusted input reaching queries, shells, paths or markup',
      'missing or bypassable access checks',
      'secrets in code or logs',
      'weak or misused cryptography',
    ],
    flag: 'an exploitable weakness (CRITICAL or HIGH)',
    advisory: 'hardening with a realistic benefit (MEDIUM, LOW or INFO)',
    example: {
      code: "db.query(`SELECT * FROM users WHERE name = '${name}'`)",
      finding: 'pass name as a query parameter (the string is injectable)',
    },
  },
  {
    id: 'logic',
    name: 'Logic',
    scope: 'lens',
    summary:
      'Bugs, edge cases, error handling, silent failures, type invariants, and whether the code does what it is meant to.',
    checks: [
      'wrong results on edge cases',
      'errors lost or mishandled',
      'broken invariants',
      'stale comments and missing tests where they hide a bug',
    ],
    flag: 'wrong behaviour on realistic input (CRITICAL or HIGH)',
    advisory: 'fragile code that works today (MEDIUM, LOW or INFO)',
    example: {
      code: 'const avg = sum / values.length;',
      finding: 'handle an empty list (the average is NaN when values is empty)',
    },
  },
  {
    id: 'performance',
    name: 'Performance',
    scope: 'lens',
    summary: 'Work that grows worse than it needs to: N+1 calls, unbounded memory, blocking work, leaks.',
    checks: [
      'a query or request per item in a loop',
      'collections that grow without a bound',
      'blocking calls on a hot or async path',
      'listeners, timers or handles never released',
    ],
    flag: 'a realistic load makes it fail or stall (CRITICAL or HIGH)',
    advisory: 'a measurable but tolerable cost (MEDIUM, LOW or INFO)',
    example: {
      code: 'for (const id of ids) rows.push(await db.get(id));',
      finding: 'fetch the rows in one query (one round trip per id)',
    },
  },
  {
    id: 'types',
    name: 'Type design',
    scope: 'lens',
    summary: 'Types that make invalid states hard to express, and keep their invariants.',
    checks: [
      'states the types allow but the code cannot handle',
      'invariants enforced only by convention',
      'casts that hide real mismatches',
    ],
    flag: 'a type lets a real bug through (CRITICAL or HIGH)',
    advisory: 'a tighter type would prevent mistakes (MEDIUM, LOW or INFO)',
    example: {
      code: 'type Order = { paid: boolean; paidAt?: Date }',
      finding: 'model payment as one optional paidAt (paid can be true without a date)',
    },
  },
  {
    id: 'silent-failures',
    name: 'Silent failures',
    scope: 'lens',
    summary: 'Errors that are caught and dropped, so failures pass for success.',
    checks: [
      'empty or logging-only catch blocks on important paths',
      'ignored error returns',
      'fallbacks that hide a broken state',
    ],
    flag: 'a failure is reported as success (CRITICAL or HIGH)',
    advisory: 'a failure loses its context (MEDIUM, LOW or INFO)',
    example: {
      code: 'fetchPrices().catch(() => []);',
      finding: 'surface the fetch error (an outage shows as an empty price list)',
    },
  },
  {
    id: 'spec-compliance',
    name: 'Spec compliance',
    scope: 'lens',
    summary: 'The change meets its specification or acceptance criteria, and stays within them.',
    checks: ['criteria the code does not meet', 'behaviour the spec forbids', 'scope creep beyond the spec'],
    flag: 'a required behaviour is missing or wrong (CRITICAL or HIGH)',
    advisory: 'partial or ambiguous coverage (MEDIUM, LOW or INFO)',
    example: {
      code: 'the spec asks for a 30-day refund window; the code allows 14',
      finding: 'use 30 days (the acceptance criterion says 30)',
    },
  },
  {
    id: 'comments',
    name: 'Comments',
    scope: 'lens',
    summary: 'Comments and docs that are stale or misleading.',
    checks: [
      'comments describing old behaviour',
      'TODOs that are already done or no longer apply',
      'docs that promise what the code does not do',
    ],
    flag: 'a comment misleads callers into a bug (CRITICAL or HIGH)',
    advisory: 'a stale or unclear comment (MEDIUM, LOW or INFO)',
    example: {
      code: '// retries three times\nawait send(msg);',
      finding: 'drop or fix the comment (send is not retried)',
    },
  },
  {
    id: 'tests',
    name: 'Tests',
    scope: 'lens',
    summary: 'Behaviour that matters but no test would notice breaking.',
    checks: ['important paths with no test', 'tests that assert nothing that could fail', 'edge cases the tests skip'],
    flag: 'critical behaviour is untested (CRITICAL or HIGH)',
    advisory: 'a useful test is missing (MEDIUM, LOW or INFO)',
    example: {
      code: 'refund() has branches for partial and full refunds; only full is tested',
      finding: 'add a test for a partial refund (that branch is never run)',
    },
  },
  {
    id: 'cross-repo',
    name: 'Across repositories',
    scope: 'lens',
    summary: 'Changes in one repository that break or drift from another.',
    checks: [
      'shared types changed without their consumers',
      'API contracts changed without their clients',
      'version and configuration drift',
    ],
    flag: 'a consumer breaks (CRITICAL or HIGH)',
    advisory: 'drift that will bite later (MEDIUM, LOW or INFO)',
    example: {
      code: 'api renames total to amount; web still reads total',
      finding: 'update web to read amount (the checkout page shows nothing)',
    },
  },
];

const BY_ID = new Map(RULES.map((r) => [r.id.toLowerCase(), r]));

/** The rule for an id (case-insensitive), or undefined for an id Skeptic does not know. */
export function ruleInfo(id: string): RuleInfo | undefined {
  return BY_ID.get(id.toLowerCase());
}

/** "A1 Bugs", or the id alone when it is not in the catalog. */
export function ruleLabel(id: string): string {
  const r = ruleInfo(id);
  return r ? `${r.id} ${r.name}` : id;
}

/**
 * Where the rule pages are published, for links that leave the editor (SARIF's helpUri). The extension links
 * to its own copy instead. Change this one constant when the repository moves.
 */
export const RULES_HELP_URL = 'https://github.com/skeptic-dev/skeptic/blob/main/media/rules/';

/** The file name of a rule's page in media/rules/. */
export function rulePageName(id: string): string {
  return `${id.toLowerCase()}.md`;
}

const SCOPE_TEXT: Record<RuleScope, string> = {
  function: 'Function-level rule: checked for each function in Step 3 of a review.',
  file: 'File-level rule: checked once per file in Step 2 of a review.',
  'cross-file': 'Cross-file rule: checked across all reviewed files in Step 5 of a review.',
  lens: 'Quick Review reviewer: findings raised through this lens carry its name as their rule.',
};

/** A rule's page, as shipped in media/rules/ and linked from every diagnostic of that rule. */
export function renderRulePage(r: RuleInfo): string {
  return [
    `# ${r.id} · ${r.name}`,
    '',
    r.summary,
    '',
    `*${SCOPE_TEXT[r.scope]}*`,
    '',
    '## What it checks',
    '',
    ...r.checks.map((c) => `- ${c[0]!.toUpperCase()}${c.slice(1)}.`),
    '',
    '## How serious',
    '',
    r.flag
      ? `- **Flag (must fix)** when ${r.flag}.`
      : '- **Never a flag**: on its own this is never a likely bug, so at most *should fix*.',
    `- **Advisory (should fix or nice to have)** when ${r.advisory}.`,
    '',
    '## Example',
    '',
    '```',
    r.example.code,
    '```',
    '',
    `Finding: *${r.example.finding}*`,
    '',
    'Every finding is challenged before you see it; if one is still wrong, dismiss it from the lightbulb',
    '(Dismiss…) or with a `skeptic-ignore ' + r.id + ': reason` comment on or above the line.',
    '',
  ].join('\n');
}
