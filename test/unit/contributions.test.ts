import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ReviewChoices } from '../../src/app/choices';
import {
  OPTION_ROWS,
  OPTIONS,
  RESTRICTED_SETTINGS,
  settingsContribution,
  type SettingRow,
} from '../../src/app/choiceTable';
import { COMMANDS, FINDINGS_VIEW, LIMITS, SETTINGS } from '../../src/app/contributions';
import { USAGE } from '../../src/cli/help';
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
    // The host reads every setting by the table; the worker must know each one as a choice.
    const choices = Object.keys(ReviewChoices.def.shape);
    for (const field of Object.keys(SETTINGS))
      assert.ok((OPTIONS[field as keyof typeof SETTINGS].setting as SettingRow).host || choices.includes(field), field);
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
      'skeptic.editorModels',
      ...declaredViews(),
      ...declaredMcpProviders(),
    ]);
    for (const file of sourceFiles(join(REPO, 'src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/'(skeptic\.[A-Za-z.]+)'/g))
        assert.ok(known.has(m[1]!), `${file}: ${m[1]}`);
    }
  });
});

/** The views package.json contributes; the findings view the code creates must be one of them. */
/** The MCP server definition providers' ids (src/ui/agentTools.ts registers the one). */
function declaredMcpProviders(): string[] {
  const c = manifest.contributes as { mcpServerDefinitionProviders?: Array<{ id: string }> };
  return (c.mcpServerDefinitionProviders ?? []).map((p) => p.id);
}

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
  for (const [name, key] of Object.keys(LIMITS).map((n) => [n, SETTINGS[n as keyof typeof LIMITS]])) {
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

describe('settings and flags: one table', () => {
  it("package.json's settings are the table's, declaration for declaration", () => {
    const made = settingsContribution();
    assert.deepEqual(
      manifest.contributes.configuration.properties,
      made,
      `package.json's contributes.configuration.properties should be:\n${JSON.stringify(made, null, 2)}`,
    );
  });

  it('restricts in untrusted workspaces exactly the settings the table marks', () => {
    assert.deepEqual(
      [...manifest.capabilities.untrustedWorkspaces.restrictedConfigurations].sort(),
      RESTRICTED_SETTINGS.map((k) => `skeptic.${k}`).sort(),
    );
  });

  it("the README's table is the table's settings, each with its flag or what stands instead", () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const rows = readme.match(/^\| `[\w.]+` \| .* \|$/gm) ?? [];
    const made = OPTION_ROWS.flatMap(([, r]) => {
      if (!r.setting) return [];
      const flag = r.flag ? `\`--${r.flag.name}\`` : r.setting.instead ? `— (\`${r.setting.instead}\`)` : '—';
      const text = r.setting.readme.replace('{default}', String(r.limit?.default));
      return [`| \`${r.setting.key}\` | ${flag} | ${text} |`];
    });
    assert.deepEqual(rows, made, `README's settings table should read:\n${made.join('\n')}`);
  });

  it('a setting that is never a flag says why: what stands instead, or it is the host alone', () => {
    for (const [name, r] of OPTION_ROWS)
      if (r.setting && !r.flag)
        assert.ok(r.setting.instead || r.setting.host, `${name} is neither a flag nor says why`);
  });

  it('the CLI help shows every flag of the table, with its default', () => {
    for (const [, r] of OPTION_ROWS) {
      if (!r.flag) continue;
      const label = r.flag.label ?? `--${r.flag.name}${r.flag.arg ? ` ${r.flag.arg}` : ''}`;
      const first = r.flag.help[0]!.replace('{default}', String(r.limit?.default));
      assert.ok(USAGE.includes(`  ${label}`) && USAGE.includes(first), label);
    }
  });
});
