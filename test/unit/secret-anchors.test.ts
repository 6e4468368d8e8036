import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { lintSource } from '@secretlint/core';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { mayHoldSecret, PRESET_ANCHORS } from '../../src/scope/secretAnchors';
import { PRESET_CONFIG, SCANNED_NAME } from '../../src/scope/secretContent';

const EXAMPLES = join(__dirname, '../../../test/fixtures/secretlint-preset');

function examples(dir = EXAMPLES): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? examples(p) : name === 'README.md' ? [] : [p];
  });
}

/** What the preset reports for a text, scanned exactly as Step 0 scans it. */
async function reports(text: string): Promise<string[]> {
  const result = await lintSource({
    source: { filePath: SCANNED_NAME, content: text, contentType: 'text' },
    options: { config: PRESET_CONFIG, maskSecrets: true },
  });
  return result.messages.filter((m) => m.type === 'message').map((m) => m.ruleId);
}

describe('scope/secretAnchors: the prefilter in front of the secret scan', () => {
  it('knows every rule of the preset, and no other', () => {
    assert.deepEqual(Object.keys(PRESET_ANCHORS).sort(), rules.map((r) => r.meta.id).sort());
  });

  it("passes every one of the preset's own examples that the preset reports, by the reporting rule's own anchors", async () => {
    const files = examples();
    assert.ok(files.length >= 50, `expected secretlint's examples under ${EXAMPLES}`);
    const reported = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const rule of await reports(text)) {
        reported.add(rule);
        assert.ok(mayHoldSecret(text), `${file}: reported by ${rule}, but the prefilter would skip it`);
        assert.ok(
          PRESET_ANCHORS[rule]?.some((re) => re.test(text)),
          `${file}: reported by ${rule}, which has no anchor in it`,
        );
      }
    }
    // Every rule with anchors was exercised; the rules without any never report as Step 0 scans.
    const anchored = Object.keys(PRESET_ANCHORS).filter((id) => PRESET_ANCHORS[id]!.length > 0);
    assert.deepEqual([...reported].sort(), anchored.sort());
  });

  it('lets ordinary source through without a scan', () => {
    assert.equal(mayHoldSecret(readFileSync(join(__dirname, '../../../src/scope/inventory.ts'), 'utf8')), false);
    assert.equal(mayHoldSecret('const url = "https://example.com/docs";\nexport const PRIVATE = 1;\n'), false);
  });
});
