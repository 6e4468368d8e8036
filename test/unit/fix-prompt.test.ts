import assert from 'node:assert/strict';
import { fixPrompt } from '../../src/model/fixPrompt';
import { finding } from '../helpers/records';

describe('the fix prompt', () => {
  const f = finding({
    file: 'shop/cart.ts',
    line: 17,
    function: 'Cart.total',
    action: 'Loop while i < length.',
    rationale: 'The last pass reads past the end.',
    verdict: 'The bound really is off by one.',
  });

  it("gives a coding agent the place, the action, the reason, the rule and the challenger's verdict", () => {
    const text = fixPrompt(f, null);
    assert.match(text, /^Fix this code review finding in shop\/cart\.ts:17 \(in Cart\.total\)\.$/m);
    assert.match(text, /^What to do: Loop while i < length\.$/m);
    assert.match(text, /^Why: The last pass reads past the end\.$/m);
    assert.match(text, /^Rule: A1 Bugs; priority must fix; confidence high\.$/m);
    assert.match(text, /^A reviewer who tried to disprove it concluded: The bound really is off by one\.$/m);
  });

  it('quotes the function in a fence longer than any backtick run inside it', () => {
    const text = fixPrompt(f, { text: 'const s = `a ${"```"} b`;', firstLine: 15, language: 'typescript' });
    assert.match(
      text,
      /The code \(shop\/cart\.ts, from line 15\):\n\n````typescript\nconst s = `a \$\{"```"\} b`;\n````\n/,
    );
  });
});
