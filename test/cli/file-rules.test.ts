/**
 * The rules that apply to some files only (prompts/file-rules.md) reach a call exactly where they apply: a
 * review of whole files carries none of a change's, and only a Step 2 call about a file no parser reads is
 * told how to list its functions. (A diff review's rules are checked in change-context.test.ts.)
 */
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FILE_RULES } from '../../src/engine/staged/fileRules';
import { MessagesBody, parseRequest } from '../fake-anthropic/request';
import { startFakeAnthropic, type FakeAnthropic, type LoggedRequest } from '../fake-anthropic/server';
import { runCli } from '../helpers/cli';

const TS = 'export function half(n: number): number {\n  return n / 2;\n}\n';
const LUA = 'local M = {}\n\nfunction M.half(n)\n  return n / 2\nend\n\nreturn M\n';

type Body = { max_tokens: number; messages: Array<{ content: Array<{ text?: string }> }> };
const userText = (r: LoggedRequest) => (r.body as Body).messages[0]!.content.map((b) => b.text ?? '').join('\n');
const lastBlock = (r: LoggedRequest) => (r.body as Body).messages[0]!.content.at(-1)!.text ?? '';

describe('rules for some files only reach the calls they apply to', function () {
  this.timeout(60_000);
  let server: FakeAnthropic;
  let asked: LoggedRequest[];

  before(async () => {
    server = await startFakeAnthropic({});
    const cwd = await mkdtemp(join(tmpdir(), 'skeptic-file-rules-'));
    await mkdir(join(cwd, 'lib'));
    await writeFile(join(cwd, 'lib/half.ts'), TS);
    await writeFile(join(cwd, 'lib/half.lua'), LUA);
    const run = await runCli(['review', 'lib'], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
    });
    assert.ok(run.code === 0 || run.code === 1, run.stderr);
    asked = server.requests.filter((r) => r.body !== null && (r.body as Body).max_tokens > 1 && r.file !== null);
  });
  after(() => server.close());

  it("sends no change's rules in a review of whole files", () => {
    assert.ok(asked.length > 0);
    for (const r of asked)
      for (const rule of ['change', 'removed', 'deleted', 'intent', 'intent-challenge', 'callers', 'outline'])
        assert.ok(!userText(r).includes(FILE_RULES[rule]!), `${r.record} on ${r.file}: the ${rule} rule`);
  });

  it('tells Step 2 how to list functions only for a file no parser reads, and no other step', () => {
    const analyze = (file: string) => asked.find((r) => r.record === 'FileAnalysis' && r.file === file)!;
    const packet = (r: LoggedRequest) => parseRequest(MessagesBody.parse(r.body)).packet as Record<string, unknown>;
    const lua = analyze('lib/half.lua');
    assert.equal(packet(lua).function_inventory, undefined);
    assert.ok(lastBlock(lua).includes(FILE_RULES['no-inventory']!), 'after the directive of the Lua file');
    const ts = analyze('lib/half.ts');
    assert.ok(Array.isArray(packet(ts).function_inventory));
    assert.ok(!userText(ts).includes(FILE_RULES['no-inventory']!), 'not where the parser lists the functions');
    const others = asked.filter((r) => r.record !== 'FileAnalysis');
    assert.ok(others.some((r) => r.file === 'lib/half.lua'));
    for (const r of others) assert.ok(!userText(r).includes(FILE_RULES['no-inventory']!), `${r.record} on ${r.file}`);
  });
});
