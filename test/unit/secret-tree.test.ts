import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lintSource } from '@secretlint/core';
import { takeInventory } from '../../src/scope/inventory';
import { PRESET_CONFIG, SCANNED_NAME } from '../../src/scope/secretContent';
import { put } from '../helpers/tree';

const EXAMPLES = join(__dirname, '../../../test/fixtures/secretlint-preset');

/** Every example of the preset's rules that the preset reports, with the detail Step 0 must give for it. */
async function secretExamples(): Promise<Array<{ name: string; text: string; detail: string }>> {
  const out = [];
  for (const rule of await readdir(EXAMPLES, { withFileTypes: true })) {
    if (!rule.isDirectory()) continue;
    for (const example of await readdir(join(EXAMPLES, rule.name))) {
      for (const file of await readdir(join(EXAMPLES, rule.name, example))) {
        const text = await readFile(join(EXAMPLES, rule.name, example, file), 'utf8');
        const result = await lintSource({
          source: { filePath: SCANNED_NAME, content: text, contentType: 'text' },
          options: { config: PRESET_CONFIG, maskSecrets: true },
        });
        const first = result.messages
          .filter((m) => m.type === 'message')
          .sort((a, b) => a.loc.start.line - b.loc.start.line)[0];
        if (first)
          out.push({
            name: `${rule.name}-${example}.txt`,
            text,
            detail: `${first.messageId} on line ${first.loc.start.line}`,
          });
      }
    }
  }
  return out;
}

describe('secrets by content in a large tree', () => {
  it('excludes every file the preset reports, with its kind and line, among 1,500 clean files', async () => {
    process.env.GIT_CEILING_DIRECTORIES = tmpdir();
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-secret-tree-'));
    const secrets = await secretExamples();
    assert.ok(secrets.length >= 25, `${secrets.length} examples`);
    for (let i = 0; i < 1500; i++)
      await put(
        cwd,
        `src/m${Math.floor(i / 100)}/f${i}.ts`,
        `export function f${i}(x: number): number {\n  return x + ${i}; // https://example.com/docs/${i}\n}\n`,
      );
    for (const s of secrets) await put(cwd, `src/secrets/${s.name}`, s.text);
    const inv = await takeInventory(['src'], { cwd });
    const excluded = new Map(inv.excluded.map((e) => [e.path, e]));
    for (const s of secrets) {
      const e = excluded.get(`src/secrets/${s.name}`);
      assert.equal(e?.reason, 'secret', `src/secrets/${s.name} was not excluded as a secret`);
      assert.equal(e.detail, s.detail, s.name);
    }
    assert.equal(inv.discovery.file_entries.length, 1500);
    assert.equal(inv.excluded.length, secrets.length);
  });
});
