import assert from 'node:assert/strict';
import { severityFor, toDiagnostic } from '../../src/app/diagnosticMap';
import { finding } from '../helpers/records';

const lines = (n: number) => () => n;

describe('finding → diagnostic', () => {
  it('maps priorities to severities, with a remap from settings', () => {
    assert.equal(severityFor('must_fix', {}), 'error');
    assert.equal(severityFor('should_fix', {}), 'warning');
    assert.equal(severityFor('nice_to_have', {}), 'information');
    assert.equal(severityFor('should_fix', { should_fix: 'error' }), 'error');
    assert.equal(severityFor('nice_to_have', { nice_to_have: 'loud' }), 'information');
  });

  it('converts 1-based lines to 0-based and keeps source, code and message', () => {
    const d = toDiagnostic(
      finding({ line: 17, rule_id: 'A1', action: 'Loop while i < n.', rationale: 'Reads past the end.' }),
      lines(40),
    );
    assert.deepEqual(d.at, { file: 'src/a.ts', line: 16, endLine: 16 });
    assert.equal(d.source, 'Skeptic');
    assert.equal(d.code, 'A1');
    assert.equal(d.message, 'Loop while i < n. (Reads past the end.)');
  });

  it('clamps untrusted positions to the file', () => {
    assert.equal(toDiagnostic(finding({ line: 99 }), lines(10)).at.line, 9);
    assert.equal(toDiagnostic(finding({ line: 0 }), lines(10)).at.line, 0);
    assert.equal(toDiagnostic(finding({ line: Number.NaN }), lines(10)).at.line, 0);
    assert.deepEqual(toDiagnostic(finding({ line: 3, end_line: 50 }), lines(10)).at, {
      file: 'src/a.ts',
      line: 2,
      endLine: 9,
    });
    assert.equal(toDiagnostic(finding({ line: 5 }), () => undefined).at.line, 4);
  });

  it('gives cross-file findings related information for their other places', () => {
    const f = {
      ...finding({ file: 'a.ts', line: 3, rule_id: 'G1' }),
      locations: [
        { file: 'a.ts', line: 3 },
        { file: 'b.ts', line: 8 },
        { file: 'c.ts', line: 500 },
      ],
    };
    const d = toDiagnostic(f, (file) => (file === 'c.ts' ? 20 : 100));
    assert.deepEqual(
      d.related.map((r) => [r.at.file, r.at.line]),
      [
        ['b.ts', 7],
        ['c.ts', 19],
      ],
    );
  });

  it('tags pre-existing and unchallenged findings in the message', () => {
    assert.match(
      toDiagnostic(finding({ pre_existing: true, unchallenged: true }), lines(10)).message,
      /\[pre-existing, not challenged\]$/,
    );
  });
});
