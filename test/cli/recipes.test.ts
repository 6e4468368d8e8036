import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { CLI, fixtureWorkspace, NO_PROVIDER_ENV, REPO } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';
import { startMcp, textOf } from '../helpers/mcpClient';
import { editedShop, fixCartTotal } from '../helpers/shop-change';

/** The README's agent section, its fenced blocks in order. */
function recipes(): Array<{ lang: string; text: string }> {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf("## In a coding agent's loop");
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, text: m[2]! }));
}

const block = (find: (b: { lang: string; text: string }) => boolean, what: string) => {
  const found = recipes().find(find);
  assert.ok(found, `the README has a ${what} recipe`);
  return found.text;
};

/** Each MCP recipe's server command, as its client would start it. */
function servers(): Array<{ client: string; command: string; args: string[] }> {
  const claude = block((b) => b.lang === 'sh' && b.text.includes('claude mcp add'), 'Claude Code').trim();
  const [command, ...args] = claude.slice(claude.indexOf(' -- ') + 4).split(/\s+/);
  type Server = { command: string; args: string[] };
  const cursor = (
    JSON.parse(block((b) => b.text.includes('"mcpServers"'), 'Cursor')) as { mcpServers: Record<string, Server> }
  ).mcpServers.skeptic!;
  const vscode = (
    JSON.parse(block((b) => b.text.includes('"servers"'), 'VS Code')) as { servers: Record<string, Server> }
  ).servers.skeptic!;
  const toml = block((b) => b.lang === 'toml', 'Codex');
  const codex = {
    command: JSON.parse(/^command = (.+)$/m.exec(toml)![1]!) as string,
    args: JSON.parse(/^args = (.+)$/m.exec(toml)![1]!) as string[],
  };
  return [
    { client: 'Claude Code', command: command!, args },
    { client: 'Cursor', ...cursor },
    { client: 'Codex', ...codex },
    { client: 'VS Code', ...vscode },
  ];
}

/** A folder with `skeptic` in it: the built CLI, as an installed package puts it on the PATH. */
function skepticOnPath(): string {
  const bin = mkdtempSync(join(tmpdir(), 'skeptic-bin-'));
  writeFileSync(join(bin, 'skeptic'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'skeptic'), 0o755);
  return `${bin}${delimiter}${process.env.PATH ?? ''}`;
}

describe("the README's agent recipes, each tried against the fake API", function () {
  this.timeout(180_000);
  const fake = useFakeServer();
  const PATH = skepticOnPath();
  const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.server.url, PATH });

  for (const name of ['Claude Code', 'Cursor', 'Codex', 'VS Code'])
    it(`${name}: the server its configuration starts reviews the shop`, async () => {
      const server = servers().find((s) => s.client === name)!;
      assert.equal(server.command, 'skeptic');
      const cwd = await fixtureWorkspace('shop');
      const mcp = await startMcp({ cwd, env: env(), command: server.command, args: server.args });
      try {
        const { tools } = await mcp.client.listTools();
        assert.ok(tools.some((t) => t.name === 'review'));
        const review = await mcp.call('review', { paths: ['shop'] });
        assert.ok(!review.isError, textOf(review));
        assert.match(textOf(review), /^7 findings/);
      } finally {
        await mcp.close();
      }
    });

  it('Claude Code Stop hook: blocks with the new findings, then lets the agent stop once converged', async () => {
    const settings = JSON.parse(block((b) => b.text.includes('"Stop"'), 'Stop hook')) as {
      hooks: { Stop: Array<{ hooks: Array<{ type: string; command: string }> }> };
    };
    const hook = settings.hooks.Stop[0]!.hooks[0]!;
    assert.equal(hook.type, 'command');
    const repo = editedShop();
    const cache = mkdtempSync(join(tmpdir(), 'skeptic-user-cache-'));
    const run = () =>
      new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn('bash', ['-c', hook.command], {
          cwd: repo.dir,
          env: { ...process.env, ...NO_PROVIDER_ENV, ...env(), XDG_CACHE_HOME: cache } as NodeJS.ProcessEnv,
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stderr });
        });
        child.stdin.end(JSON.stringify({ hook_event_name: 'Stop', stop_hook_active: false }));
      });
    const blocked = await run();
    assert.equal(blocked.code, 2, blocked.stderr);
    assert.match(blocked.stderr, /^must_fix shop\/cart\.ts:17 A1 \(new\)/m);
    assert.match(blocked.stderr, /^verdict: not converged/m);
    fake.server.setScenario(fixCartTotal(repo.dir, fake.scenario));
    const done = await run();
    assert.equal(done.code, 0, done.stderr);
    assert.equal(done.stderr, '');
  });
});
