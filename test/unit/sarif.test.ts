import assert from 'node:assert/strict';
import type { StagedResult } from '../../src/model/events';
import { emptyUsage } from '../../src/model/usage';
import { SarifLog, toSarif } from '../../src/report/sarif';
import { finding } from '../helpers/records';

describe('SARIF output', () => {
  const result = {
    mode: 'staged',
    findings: [
      finding({ file: 'src/a b.ts', line: 17, rule_id: 'A1', priority: 'must_fix', confidence: 'high' }),
      { ...finding({ file: 'src/a.ts', line: 3, rule_id: 'G1', priority: 'should_fix' }), locations: [{ file: 'src/a.ts', line: 3 }, { file: 'src/b.ts', line: 9 }] },
      finding({ file: 'src/c.ts', line: 5, end_line: 8, rule_id: 'F3', priority: 'nice_to_have', pre_existing: true }),
    ],
    usage: emptyUsage(),
  } as unknown as StagedResult;

  it('validates against the SARIF subset and maps priorities to levels', () => {
    const log = toSarif(result);
    assert.ok(SarifLog.safeParse(log).success);
    const [run] = log.runs;
    assert.deepEqual(run!.tool.driver.rules.map((r) => r.id), ['A1', 'F3', 'G1']);
    assert.deepEqual(run!.results.map((r) => r.level), ['error', 'warning', 'note']);
  });

  it('locates each result, with related places and ranges', () => {
    const [a, g, f] = toSarif(result).runs[0]!.results;
    assert.deepEqual(a!.locations[0]!.physicalLocation, { artifactLocation: { uri: 'src/a%20b.ts' }, region: { startLine: 17 } });
    assert.deepEqual(g!.relatedLocations, [{ id: 1, physicalLocation: { artifactLocation: { uri: 'src/b.ts' }, region: { startLine: 9 } } }]);
    assert.deepEqual(f!.locations[0]!.physicalLocation.region, { startLine: 5, endLine: 8 });
    assert.equal(f!.properties.preExisting, true);
  });
});
