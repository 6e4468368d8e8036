/**
 * Hostile Messages API servers through the real CLI: a server that answers 200 and then stalls, drips a byte a
 * second, streams SSE pings forever or never stops sending; and a Message Batches results stream that never
 * ends. Each run must give up within its bounds (one deadline per attempt covers headers and body), keep its
 * memory bounded (a cap on a reply's bytes), say why, and exit. Without the bounds these runs never end: the
 * test's own timeout fails them.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, fixtureWorkspace, loadJson, type CliRun } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';
import { put } from '../helpers/tree';
import { forward, hostile, relay, type Handler } from '../helpers/hostileServer';
import type { StagedJsonReport } from '../../src/report/json';

/** Writes `chunk` every `ms` until the client goes away. */
function every(res: ServerResponse, ms: number, chunk: string): void {
  const timer = setInterval(() => res.write(chunk), ms);
  res.on('close', () => clearInterval(timer));
}

const ANSWERS: Record<string, Handler> = {
  'stalls after the 200 headers': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{');
  },
  'drips a byte a second': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    every(res, 1000, ' ');
  },
  'streams SSE pings forever': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    every(res, 500, 'event: ping\ndata: {"type": "ping"}\n\n');
  },
  'sends an endless body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1 << 16, 0x20);
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on('drain', pump);
    res.write('{"id":"');
    pump();
  },
};

describe('hostile Messages API servers: every answer is bounded', function () {
  this.timeout(120_000);
  let pids: number[] = [];
  afterEach(() => {
    // A run that outlived the test is the failure being tested for: it must not outlive the suite too.
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    pids = [];
  });

  const workspace = async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'skeptic-hostile-server-'));
    await put(cwd, 'a.ts', 'export function add(a: number, b: number): number {\n  return a + b;\n}\n');
    return cwd;
  };

  for (const [what, handler] of Object.entries(ANSWERS)) {
    const endless = what.includes('endless');
    it(`gives up on a server that ${what}, says why, and writes the report`, async () => {
      const server = await hostile(handler);
      try {
        const cwd = await workspace();
        const run = await runCli(
          // An endless body gets time enough to reach the byte cap: the cap, not the deadline, must stop it.
          [
            'review',
            'a.ts',
            '--yes',
            '--no-cache',
            '--mode',
            'lenses',
            '--max-attempts',
            '1',
            '--timeout',
            endless ? '60' : '2',
          ],
          {
            cwd,
            env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url },
            spawned: (pid) => pids.push(pid),
          },
        );
        const said = run.stdout + run.stderr;
        assert.equal(run.code, 3, said);
        assert.match(said, /Missing reviewers/);
        // The report names each missing reviewer with why its call failed.
        const report = await readFile(join(cwd, /Report: (.+)/.exec(said)![1]!.trim()), 'utf8');
        assert.match(report, endless ? /larger than 32 MB/ : /timed out/);
      } finally {
        await server.close();
      }
    });
  }
});

describe('a Message Batches results stream that never ends', function () {
  this.timeout(120_000);
  const fake = useFakeServer();

  /**
   * Forwards everything to the fake, but a results stream goes on after its last line: blank keep-alive
   * lines for as long as the client listens.
   */
  async function endlessResults(): Promise<{ url: string; close: () => Promise<void> }> {
    return hostile((req, res, body) => {
      // The fake names its results_url by the Host header, so the client comes back here for them.
      const target = new URL(req.url ?? '/', fake.server.url);
      forward(req, body, target, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (d: Buffer) => res.write(d));
        answer.on('end', () => (target.pathname.endsWith('/results') ? every(res, 200, '\n') : res.end()));
      });
    });
  }

  it('ends the read at the last expected result: the run reports its findings and exits', async () => {
    const proxy = await endlessResults();
    try {
      const cwd = await fixtureWorkspace('shop');
      const run: CliRun = await runCli(['review', 'shop', '--yes', '--batch', '--json', 'result.json'], {
        cwd,
        env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: proxy.url },
      });
      assert.equal(run.code, 0, run.stderr);
      const json = await loadJson<StagedJsonReport>(join(cwd, 'result.json'));
      assert.ok(json.findings.length > 0, 'the batch results were read');
    } finally {
      await proxy.close();
    }
  });
});

describe('a reply that mixes read calls with a submit call', function () {
  this.timeout(120_000);
  const fake = useFakeServer();

  const review = async (cwd: string) =>
    runCli(['review', 'shop', '--yes', '--no-cache', '--json', 'result.json'], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.server.url },
    });
  const findings = async (cwd: string) =>
    (await loadJson<StagedJsonReport>(join(cwd, 'result.json'))).findings.map(
      (f) => `${f.file}:${f.line} ${f.rule_id}`,
    );

  it('answers every tool_use in the next turn (the fake refuses an orphan as the API does): findings as without it', async () => {
    const clean = await fixtureWorkspace('shop');
    assert.equal((await review(clean)).code, 0);
    const expected = await findings(clean);
    fake.server.reset();
    // A read call and an unusable submit call in one reply, for one unit; the unit goes on and answers.
    fake.server.setScenario({
      ...fake.scenario,
      faults: [
        {
          kind: 'tool_use',
          match: { record: 'FileAnalysis', file: 'shop/cart.ts' },
          tool: 'read_file',
          input: { path: 'shop/cart.ts' },
          also: [{ tool: 'submit_FileAnalysis', input: { not: 'a record' } }],
        },
      ],
    });
    const cwd = await fixtureWorkspace('shop');
    const run = await review(cwd);
    assert.equal(run.code, 0, run.stderr);
    const refused = fake.server.requests.filter((r) => r.status === 400);
    assert.deepEqual(refused, [], 'no request broke the contract');
    assert.ok(
      fake.server.requests.some((r) => r.fault === 'tool_use'),
      'the mixed reply was sent',
    );
    assert.deepEqual(await findings(cwd), expected);
  });
});

describe('a server behind ANTHROPIC_BASE_URL that refuses what it does not have', function () {
  this.timeout(120_000);
  const fake = useFakeServer();

  /** Forwards to the fake's limited route, but answers 400 to structured outputs, a forced tool or cache_control. */
  async function refusing(): Promise<{ url: string; close: () => Promise<void>; refused: () => number }> {
    let refused = 0;
    const server = await hostile((req, res, body) => {
      // What is not a message (the Models API's question) goes on to the fake as it came.
      const onward = () => forward(req, body, new URL(`/limited${req.url ?? ''}`, fake.server.url), relay(res));
      if (req.method !== 'POST') return onward();
      const sent = JSON.parse(body.toString()) as {
        output_config?: { format?: unknown };
        tool_choice?: { type: string };
      };
      const refuse = (message: string) => {
        refused++;
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }));
      };
      if (sent.output_config?.format) return refuse('output_config.format: not supported');
      if (sent.tool_choice && sent.tool_choice.type !== 'auto') return refuse('tool_choice: only auto is supported');
      if (body.includes('"cache_control"')) return refuse('cache_control: unknown field');
      onward();
    });
    return { ...server, refused: () => refused };
  }

  it('falls back without a flag, says so once for each, and finds what the first-party run finds', async () => {
    const review = (cwd: string, url: string) =>
      runCli(['review', 'shop', '--yes', '--no-cache', '--json', 'result.json'], {
        cwd,
        env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: url },
      });
    const findings = async (cwd: string) =>
      (await loadJson<StagedJsonReport>(join(cwd, 'result.json'))).findings.map(
        (f) => `${f.file}:${f.line} ${f.rule_id}`,
      );
    const clean = await fixtureWorkspace('shop');
    assert.equal((await review(clean, fake.server.url)).code, 0);
    const server = await refusing();
    try {
      const cwd = await fixtureWorkspace('shop');
      const run = await review(cwd, server.url);
      assert.equal(run.code, 0, run.stderr);
      for (const what of ['structured outputs', 'a forced tool choice', 'cache_control'])
        assert.equal(
          run.stderr.split(`the endpoint refused ${what}`).length - 1,
          1,
          `${what} said once:\n${run.stderr}`,
        );
      assert.deepEqual(await findings(cwd), await findings(clean));
    } finally {
      await server.close();
    }
  });

  it('remembers the fallback for the endpoint: the next run says so once and meets no 400', async () => {
    const server = await refusing();
    try {
      // One user cache for both runs (and both clones of the repository): the memory is the user's.
      const env = {
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: server.url,
        XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'skeptic-user-cache-')),
      };
      const review = async (cache: '--no-cache' | '--refresh') =>
        runCli(['review', 'shop', '--yes', cache, '--json', 'result.json'], {
          cwd: await fixtureWorkspace('shop'),
          env,
        });
      const first = await review('--no-cache');
      assert.equal(first.code, 0, first.stderr);
      const learned = server.refused();
      assert.ok(learned >= 3, `the first run met the refusals (${learned})`);
      const remembered = JSON.parse(await readFile(join(env.XDG_CACHE_HOME, 'skeptic', 'endpoints.json'), 'utf8'));
      assert.deepEqual(Object.keys(remembered as object), [new URL(server.url).href]);

      const second = await review('--no-cache');
      assert.equal(second.code, 0, second.stderr);
      assert.equal(server.refused(), learned, 'the second run sent nothing the endpoint refuses');
      assert.equal(second.stderr.split('in an earlier run').length - 1, 1, second.stderr);
      assert.match(
        second.stderr,
        /refused structured outputs, a forced tool choice, cache_control \(a prompt cache\) in an earlier run: .*--refresh asks it again; deleting .*endpoints\.json forgets every endpoint/,
      );
      assert.doesNotMatch(second.stderr, /the endpoint refused/);

      // --refresh asks the endpoint again.
      const fresh = await review('--refresh');
      assert.equal(fresh.code, 0, fresh.stderr);
      assert.ok(server.refused() > learned, 'the refresh run asked again');
    } finally {
      await server.close();
    }
  });
});
