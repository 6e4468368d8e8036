import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, FINDINGS_VIEW, LIMITS, SETTINGS } from '../../src/app/contributions';
import { REPO } from '../helpers/cli';

interface Manifest {
  contributes: {
    commands: Array<{ command: string; title: string }>;
    configuration: { properties: Record<string, unknown> };
    menus: Record<string, Array<{ command: string }>>;
  };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
}
const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Manifest;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('package.json contributions agree with the code', () => {
  it('contributes exactly the commands the code registers', () => {
    assert.deepEqual(manifest.contributes.commands.map((c) => c.command).sort(), Object.values(COMMANDS).sort());
    const commandsTs = ['commands.ts', 'findingCommands.ts']
      .map((f) => readFileSync(join(REPO, 'src/ui', f), 'utf8'))
      .join('\n');
    for (const key of Object.keys(COMMANDS))
      assert.match(commandsTs, new RegExp(`registerCommand\\(COMMANDS\\.${key}\\b`), `no registration for ${key}`);
  });

  it('gives users the titles they expect', () => {
    const titles = manifest.contributes.commands.map((c) => c.title);
    for (const t of [
      'Review These Files',
      'Review Uncommitted Changes',
      'Review Staged Changes',
      'Review Branch Changes…',
      'Cancel Review',
      'Show Last Report',
      'Clear Findings',
      'Set API Key',
    ])
      assert.ok(titles.includes(t), t);
  });

  it('menus name only contributed commands', () => {
    const known = new Set(Object.values(COMMANDS));
    for (const [menu, items] of Object.entries(manifest.contributes.menus))
      for (const i of items) assert.ok(known.has(i.command as never), `${menu}: ${i.command}`);
  });

  it('declares exactly the settings the code reads, and restricts only declared ones', () => {
    const declared = Object.keys(manifest.contributes.configuration.properties).sort();
    assert.deepEqual(
      declared,
      Object.values(SETTINGS)
        .map((k) => `skeptic.${k}`)
        .sort(),
    );
    const settingsTs = readFileSync(join(REPO, 'src/ui/settings.ts'), 'utf8');
    for (const key of Object.keys(SETTINGS))
      assert.match(settingsTs, new RegExp(`SETTINGS\\.${key}\\b`), `setting ${key} is never read`);
    for (const r of manifest.capabilities.untrustedWorkspaces.restrictedConfigurations)
      assert.ok(declared.includes(r), r);
  });

  it('uses no skeptic.* id in src/ that package.json does not declare', () => {
    const known = new Set([
      ...Object.values(COMMANDS),
      ...declaredKeys(),
      'skeptic.anthropicApiKey',
      'skeptic.report',
      'skeptic.status',
      'skeptic.lastReport',
      'skeptic.lastFindings',
      'skeptic.dismissals',
      ...declaredViews(),
    ]);
    for (const file of sourceFiles(join(REPO, 'src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/'(skeptic\.[A-Za-z.]+)'/g))
        assert.ok(known.has(m[1]!), `${file}: ${m[1]}`);
    }
  });
});

/** The views package.json contributes; the findings view the code creates must be one of them. */
function declaredViews(): string[] {
  const views = (manifest.contributes as { views?: Record<string, Array<{ id: string }>> }).views ?? {};
  const ids = Object.values(views).flatMap((list) => list.map((v) => v.id));
  assert.ok(ids.includes(FINDINGS_VIEW), `package.json does not contribute the view ${FINDINGS_VIEW}`);
  return ids;
}

function declaredKeys(): string[] {
  return Object.keys(manifest.contributes.configuration.properties);
}

describe('numeric settings agree with the defaults and ranges the code applies', () => {
  const numeric: Record<keyof typeof LIMITS, string> = {
    concurrency: 'maxConcurrency',
    requestTimeout: 'requestTimeout',
    maxAttempts: 'maxAttempts',
    confirmThreshold: 'confirmThreshold',
    maxCalls: 'maxCalls',
    batchTimeout: 'batchTimeout',
  };
  for (const [name, key] of Object.entries(numeric)) {
    it(`skeptic.${key}`, () => {
      const declared = manifest.contributes.configuration.properties[`skeptic.${key}`] as {
        default: number;
        minimum: number;
        maximum: number;
      };
      const limit = LIMITS[name as keyof typeof LIMITS];
      assert.deepEqual(
        { default: declared.default, min: declared.minimum, max: declared.maximum },
        { default: limit.default, min: limit.min, max: limit.max },
      );
    });
  }
});
