import assert from 'node:assert/strict';
import type { StagedResult } from '../../src/model/events';
import { emptyUsage } from '../../src/model/usage';
import { SarifLog, toSarif } from '../../src/report/sarif';
import { finding } from '../helpers/records';

describe('SARIF output', () => {
  const result = {
    mode: 'staged',
    findings: [
      finding({
        file: 'src/a b.ts',
        line: 17,
        rule_id: 'A1',
        priority: 'must_fix',
        confidence: 'high',
        fingerprint: '0123456789abcdef0123',
        verdict: 'The loop does read past the end.',
      }),
      {
        ...finding({ file: 'src/a.ts', line: 3, rule_id: 'G1', priority: 'should_fix' }),
        locations: [
          { file: 'src/a.ts', line: 3 },
          { file: 'src/b.ts', line: 9 },
        ],
      },
      finding({ file: 'src/c.ts', line: 5, end_line: 8, rule_id: 'F3', priority: 'nice_to_have', pre_existing: true }),
    ],
    usage: emptyUsage(),
  } as unknown as StagedResult;

  it('validates against the SARIF subset and maps priorities to levels', () => {
    const log = toSarif(result);
    assert.ok(SarifLog.safeParse(log).success);
    const [run] = log.runs;
    assert.deepEqual(
      run!.tool.driver.rules.map((r) => r.id),
      ['A1', 'F3', 'G1'],
    );
    assert.deepEqual(
      run!.results.map((r) => r.level),
      ['error', 'warning', 'note'],
    );
  });

  it('locates each result, with related places and ranges', () => {
    const [a, g, f] = toSarif(result).runs[0]!.results;
    assert.deepEqual(a!.locations[0]!.physicalLocation, {
      artifactLocation: { uri: 'src/a%20b.ts' },
      region: { startLine: 17 },
    });
    assert.deepEqual(g!.relatedLocations, [
      { id: 1, physicalLocation: { artifactLocation: { uri: 'src/b.ts' }, region: { startLine: 9 } } },
    ]);
    assert.deepEqual(f!.locations[0]!.physicalLocation.region, { startLine: 5, endLine: 8 });
    assert.equal(f!.properties.preExisting, true);
  });

  it('describes every rule from the catalog, with its help page', () => {
    const a1 = toSarif(result).runs[0]!.tool.driver.rules.find((r) => r.id === 'A1')!;
    assert.equal(a1.name, 'Bugs');
    assert.match(a1.shortDescription!.text, /wrong thing at runtime/);
    assert.match(a1.fullDescription!.text, /It checks: .*loops/);
    assert.match(a1.helpUri!, /\/media\/rules\/a1\.md$/);
    assert.match(a1.help!.markdown, /^# A1 · Bugs/);
    assert.deepEqual(a1.properties!.tags, ['skeptic', 'function', 'can-flag']);
    const f3 = toSarif(result).runs[0]!.tool.driver.rules.find((r) => r.id === 'F3')!;
    assert.equal(f3.name, 'DuplicationWithinAFile');
    assert.ok(f3.properties!.tags.includes('advisory-only'));
  });

  it("carries priority, confidence, the challenger's verdict and the dismissal fingerprint per result", () => {
    const [a, g] = toSarif(result).runs[0]!.results;
    assert.deepEqual(a!.properties, {
      priority: 'must_fix',
      confidence: 'high',
      verdict: 'The loop does read past the end.',
    });
    assert.deepEqual(a!.partialFingerprints, { 'skeptic/v1': '0123456789abcdef0123' });
    assert.equal(g!.partialFingerprints, undefined, 'no fingerprint, no partialFingerprints');
  });
});
