import assert from 'node:assert/strict';
import { findSecret } from '../../src/scope/secretContent';
import { findOwnSecret, looksLikeCredential, SECRET_RULES } from '../../src/scope/secretRules';
import { SECRET_EXAMPLES } from '../helpers/secretExamples';

describe("Skeptic's own secret rules", () => {
  it('every rule has positive and negative examples, and every example names a rule', () => {
    const ids = SECRET_RULES.map((r) => r.id);
    assert.deepEqual(Object.keys(SECRET_EXAMPLES).sort(), [...ids].sort());
    for (const id of ids) {
      assert.ok(SECRET_EXAMPLES[id]!.positive.length > 0, `${id} has no positive example`);
      assert.ok(SECRET_EXAMPLES[id]!.negative.length > 0, `${id} has no negative example`);
    }
  });

  for (const rule of SECRET_RULES) {
    describe(rule.id, () => {
      const { positive, negative } = SECRET_EXAMPLES[rule.id]!;
      it('reports each positive example, naming the rule and the line', async () => {
        for (const { text, line } of positive) {
          assert.ok(rule.anchor.test(text), `the anchor misses:\n${text}`);
          assert.deepEqual(findOwnSecret(text), { kind: rule.id, line }, text);
          // Whatever finds it first (the preset or this rule), the file is a secret.
          assert.ok(await findSecret(text), text);
        }
      });
      it('passes each negative example', () => {
        for (const text of negative) assert.equal(rule.find(text), -1, text);
      });
    });
  }

  it('a credential is a literal that is neither a placeholder, a template, a phrase, a path nor a name', () => {
    for (const v of ['Tr0ub4dor&3', 'hunter2', 'a8f5f167f44f4964', 'Sup3rS3cret!'])
      assert.ok(looksLikeCredential(v), v);
    for (const v of [
      '',
      'x',
      'xxxxxxxx',
      '********',
      'changeme',
      'your-token',
      '${TOKEN}',
      '{{ secret }}',
      '<password>',
      'Enter your password',
      '/run/secrets/x',
      'https://example.com/token',
      'GITHUB_TOKEN',
      'access_token',
      'Bearer',
      'process.env.TOKEN',
    ])
      assert.ok(!looksLikeCredential(v), v);
  });
});
