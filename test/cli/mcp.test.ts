import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentReview } from '../../src/app/agentReview';
import { fixtureWorkspace } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';
import { startMcp, textOf, type McpSession } from '../helpers/mcpClient';
import { fixCartTotal } from '../helpers/shop-change';
import { TempRepo } from '../helpers/git-repo';

describe('skeptic mcp driven by the MCP SDK client over stdio, against the fake API', function () {
  this.timeout(120_000);
  const fake = useFakeServer();
  const sessions: McpSession[] = [];
  const open = async (opts: Parameters<typeof startMcp>[0]) => {
    const s = await startMcp(opts);
    sessions.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.close()));
  });
  const keyed = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.server.url });
  const review = (r: { structuredContent?: unknown }) => r.structuredContent as AgentReview;

  it('shakes hands, lists its four tools with input and output schemas, and plans without a call', async () => {
    const cwd = await fixtureWorkspace('shop');
    const mcp = await open({ cwd, env: keyed() });
    assert.equal(mcp.client.getServerVersion()?.name, 'skeptic');
    const { tools } = await mcp.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['dismiss', 'findings', 'plan', 'review']);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.equal(t.outputSchema?.type, 'object', `${t.name} declares its output`);
    }
    const reviewTool = tools.find((t) => t.name === 'review')!;
    for (const arg of ['paths', 'scope', 'base', 'mode', 'max_calls', 'max_cost_usd', 'min_priority'])
      assert.ok(reviewTool.inputSchema.properties?.[arg], arg);

    const plan = await mcp.call('plan', { paths: ['shop'] });
    assert.ok(!plan.isError, textOf(plan));
    const p = plan.structuredContent as { files: string[]; calls: number; cost_usd: number };
    for (const file of ['shop/cart.ts', 'shop/price.ts']) assert.ok(p.files.includes(file), p.files.join(', '));
    assert.ok(p.calls > 0 && p.cost_usd > 0, JSON.stringify(p));
    assert.equal(fake.server.requests.length, 0, 'a plan makes no model call');
  });

  it('loops review → fix → review until converged; findings replays at 0 calls; progress is reported', async () => {
    const cwd = await fixtureWorkspace('shop');
    const mcp = await open({ cwd, env: keyed() });
    const progress: string[] = [];
    const first = await mcp.call('review', { paths: ['shop'] }, { onProgress: (m) => progress.push(m ?? '') });
    assert.ok(!first.isError, textOf(first));
    const r1 = review(first);
    const callsRound1 = fake.server.requests.length;
    assert.ok(r1.calls > 0 && r1.calls === callsRound1, `${r1.calls} calls, the fake saw ${callsRound1}`);
    const total = r1.findings.find((f) => f.file === 'shop/cart.ts' && f.rule === 'A1');
    assert.ok(total, JSON.stringify(r1.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)));
    assert.match(total.fingerprint, /^[0-9a-f]{8,64}$/);
    assert.match(total.fix_prompt, /Loop while i < this\.items\.length/);
    assert.ok(
      r1.findings.every((f) => f.new_since_last),
      'the first review of a scope finds everything new',
    );
    assert.equal(r1.converged, false);
    assert.equal(r1.complete, true);
    assert.ok(r1.report && existsSync(join(cwd, r1.report)), `report ${r1.report}`);
    assert.ok(
      progress.some((m) => /calls/.test(m)),
      `progress lines: ${progress.join(' | ')}`,
    );
    assert.match(textOf(first), /not converged/);

    // Replayed: the same findings, no model call.
    const replay = await mcp.call('findings', { paths: ['shop'] });
    assert.ok(!replay.isError, textOf(replay));
    assert.deepEqual(
      review(replay).findings.map((f) => f.fingerprint),
      r1.findings.map((f) => f.fingerprint),
    );
    assert.equal(fake.server.requests.length, callsRound1, 'findings made no call');
    const mustFix = await mcp.call('findings', { paths: ['shop'], min_priority: 'must_fix' });
    assert.ok(review(mustFix).findings.length > 0);
    assert.ok(review(mustFix).findings.every((f) => f.priority === 'must_fix'));

    // The agent fixes Cart.total; the model no longer flags it. Only the changed code is asked again.
    fake.server.setScenario(fixCartTotal(cwd, fake.scenario));
    const second = review(await mcp.call('review', { paths: ['shop'] }));
    const callsRound2 = fake.server.requests.length - callsRound1;
    assert.ok(callsRound2 > 0 && callsRound2 < callsRound1, `round 2: ${callsRound2} calls (round 1: ${callsRound1})`);
    assert.ok(!second.findings.some((f) => f.fingerprint === total.fingerprint), 'the fixed finding is gone');
    assert.ok(second.findings.length > 0 && second.findings.every((f) => !f.new_since_last));
    assert.equal(second.converged, true);

    // Unchanged: nothing asked, still converged.
    const third = review(await mcp.call('review', { paths: ['shop'] }));
    assert.equal(third.calls, 0);
    assert.equal(fake.server.requests.length - callsRound1 - callsRound2, 0);
    assert.equal(third.converged, true);
  });

  it('dismiss writes the team file the editor uses, and the next review leaves the finding out', async () => {
    const cwd = await fixtureWorkspace('shop');
    const mcp = await open({ cwd, env: keyed() });
    const r1 = review(await mcp.call('review', { paths: ['shop'] }));
    const target = r1.findings.find((f) => f.rule === 'A1')!;
    const dismissed = await mcp.call('dismiss', {
      fingerprint: target.fingerprint,
      reason: 'wont_fix',
      note: 'the caller never passes an empty cart',
    });
    assert.ok(!dismissed.isError, textOf(dismissed));
    const file = JSON.parse(readFileSync(join(cwd, '.skeptic/dismissed.json'), 'utf8')) as {
      dismissed: Array<{ fingerprint: string; rule_id: string; file: string; reason: string }>;
    };
    assert.deepEqual(
      file.dismissed.map((d) => [d.fingerprint, d.rule_id, d.file, d.reason]),
      [[target.fingerprint, 'A1', 'shop/cart.ts', 'wont_fix']],
    );
    const r2 = review(await mcp.call('review', { paths: ['shop'] }));
    assert.ok(!r2.findings.some((f) => f.fingerprint === target.fingerprint), 'dismissed: left out');
    assert.equal(r2.findings.length, r1.findings.length - 1);

    const unknown = await mcp.call('dismiss', { fingerprint: 'abcdef0123456789', reason: 'false_positive' });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /fingerprint/);
  });

  it('answers bad input with a tool error naming the argument, and keeps serving', async () => {
    const cwd = await fixtureWorkspace('shop');
    const mcp = await open({ cwd, env: keyed() });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ paths: ['shop'], max_calls: 'ten' }, /max_calls/],
      [{ scope: 'everything' }, /scope/],
      [{ paths: ['../outside'] }, /paths.*outside/],
      [{ paths: ['shop'], colour: 'red' }, /colour/],
      [{ scope: 'branch' }, /base/],
      [{ paths: ['shop'], max_cost_usd: -1 }, /max_cost_usd/],
    ];
    for (const [args, message] of cases) {
      const r = await mcp.call('review', args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(textOf(r), message, JSON.stringify(args));
    }
    assert.equal(fake.server.requests.length, 0);
    const still = await mcp.call('plan', { paths: ['shop'] });
    assert.ok(!still.isError, textOf(still));
  });

  it('without a key, review is a tool error that says how to set one', async () => {
    const cwd = await fixtureWorkspace('shop');
    const mcp = await open({ cwd, env: { ANTHROPIC_BASE_URL: fake.server.url } });
    const r = await mcp.call('review', { paths: ['shop'] });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /ANTHROPIC_API_KEY/);
    assert.match(textOf(r), /claude mcp add skeptic -e ANTHROPIC_API_KEY=/);
    const plan = await mcp.call('plan', { paths: ['shop'] });
    assert.ok(!plan.isError, 'a plan needs no key');
  });

  it("works in the client's roots, not its own folder, and reads nothing outside them", async () => {
    const ws = await fixtureWorkspace('shop');
    const elsewhere = mkdtempSync(join(tmpdir(), 'skeptic-mcp-cwd-'));
    const mcp = await open({ cwd: elsewhere, env: keyed(), roots: [ws] });
    const plan = await mcp.call('plan', { paths: ['shop'] });
    assert.ok(!plan.isError, textOf(plan));
    assert.ok((plan.structuredContent as { files: string[] }).files.includes('shop/cart.ts'));
    const outside = await mcp.call('plan', { root: elsewhere, paths: ['.'] });
    assert.equal(outside.isError, true);
    assert.match(textOf(outside), /root/);
    const up = await mcp.call('review', { paths: [join(ws, '..')] });
    assert.equal(up.isError, true);
    assert.match(textOf(up), /paths/);
    assert.equal(fake.server.requests.length, 0);
  });

  it('a cancelled review stops, and keeps what finished for findings to replay', async () => {
    const repo = new TempRepo();
    const cwd = repo.dir;
    const ws = await fixtureWorkspace('shop');
    repo
      .write('shop/cart.ts', readFileSync(join(ws, 'shop/cart.ts')))
      .write('shop/price.ts', readFileSync(join(ws, 'shop/price.ts')));
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'slow', ms: 60_000, times: -1, match: { file: 'shop/cart.ts', record: 'PerFunctionReview' } }],
    });
    const mcp = await open({ cwd, env: keyed() });
    const controller = new AbortController();
    // Cancelled once price.ts is challenged and cart.ts hangs in its function review.
    const slow = fake.server.until(
      () =>
        fake.server.requests.some((r) => r.file === 'shop/cart.ts' && r.record === 'PerFunctionReview') &&
        fake.server.requests.some((r) => r.file === 'shop/price.ts' && r.record === 'ChallengeResult' && r.ended_at),
      'price.ts challenged while cart.ts hangs',
      60_000,
    );
    const call = mcp.call('review', { paths: ['shop'] }, { signal: controller.signal });
    await slow;
    controller.abort('the agent moved on');
    await assert.rejects(call, /moved on|abort/i);
    // The server stops the run and keeps it: the replay says what finished and that it stopped.
    const deadline = Date.now() + 30_000;
    let kept: AgentReview | undefined;
    while (!kept && Date.now() < deadline) {
      const r = await mcp.call('findings', { paths: ['shop'] });
      if (!r.isError) kept = review(r);
      else await new Promise((done) => setTimeout(done, 200));
    }
    assert.ok(kept, 'the cancelled review was kept');
    assert.equal(kept.complete, false);
    assert.equal(kept.stopped, 'cancelled');
    assert.ok(
      kept.findings.some((f) => f.file === 'shop/price.ts'),
      'what finished is kept',
    );
  });
});
