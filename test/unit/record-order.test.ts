import assert from 'node:assert/strict';
import type { z } from 'zod';
import { jsonSchemaOf } from '../../src/engine/unitCache';
import { LensReview, LensValidation } from '../../src/model/lensRecords';
import { ChallengeResult, FileAnalysis, PerFunctionReview, SynthesisResult } from '../../src/model/records';

type Schema = {
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  anyOf?: Schema[];
  type?: string | string[];
  $ref?: string;
  $defs?: Record<string, Schema>;
};

/** The object schema at `path` (property names; arrays are stepped through) in the JSON Schema a request sends. */
function objectAt(record: z.ZodType, path: string[]): Schema {
  const root = jsonSchemaOf(record) as Schema;
  const deref = (s: Schema): Schema => (s.$ref ? deref(root.$defs![s.$ref.split('/').at(-1)!]!) : s);
  let node = deref(root);
  for (const key of path) {
    node = deref(node.properties![key]!);
    while (node.items) node = deref(node.items);
  }
  return node;
}

const nullable = (s: Schema): boolean =>
  [s.type].flat().includes('null') || (s.anyOf ?? []).some((o) => [o.type].flat().includes('null'));

const order = (s: Schema) => Object.keys(s.properties!);
const before = (s: Schema, reason: string, decisions: string[]) => {
  const keys = order(s);
  for (const d of decisions)
    assert.ok(keys.indexOf(reason) < keys.indexOf(d), `${reason} comes before ${d} in ${keys.join(', ')}`);
};

describe('record schemas: reasons first, category required', () => {
  const findings: [string, z.ZodType, string[], string][] = [
    ['a Step 3 verdict', PerFunctionReview, ['verdicts'], 'rationale'],
    ['a file-level finding', FileAnalysis, ['file_level_findings'], 'rationale'],
    ['a cross-file finding', SynthesisResult, ['cross_file_findings'], 'rationale'],
    ['a lens finding', LensReview, ['findings'], 'evidence'],
  ];
  for (const [what, record, path, reason] of findings) {
    it(`${what}: ${reason} before confidence, priority, severity and verdict; category required and nullable`, () => {
      const s = objectAt(record, path);
      before(
        s,
        reason,
        ['verdict', 'priority', 'severity', 'confidence', 'category'].filter((k) => k in s.properties!),
      );
      assert.ok(s.required!.includes('category'), `category is required in ${what}`);
      assert.ok(nullable(s.properties!.category!), 'category may be null');
      assert.ok(!record.safeParse(undefined).success);
    });
  }

  it('a challenge gives its reason before survived and revised_priority', () => {
    before(objectAt(ChallengeResult, ['challenges']), 'challenge_reason', ['survived', 'revised_priority']);
  });

  it('a validator gives its reason before its verdict', () => {
    before(objectAt(LensValidation, []), 'reason', ['verdict']);
  });

  it('a finding without a category does not parse', () => {
    const finding = {
      file: 'a.ts',
      line: 1,
      title: 't',
      evidence: 'e',
      recommendation: 'r',
      confidence: 4,
      severity: 'HIGH',
    };
    assert.ok(!LensReview.safeParse({ findings: [finding] }).success);
    assert.ok(LensReview.safeParse({ findings: [{ ...finding, category: null }] }).success);
  });
});
