/**
 * Hostile or careless endpoints through the real CLI: credentials in the base URL are refused before any
 * call, in one line that never prints them; a gateway's key in the URL's query reaches no output; a region
 * that is not a region name never becomes part of a host.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';
import { put } from '../helpers/tree';
import { forward, hostile, relay } from '../helpers/hostileServer';

const PASSWORD = 'hunter2-endpoint-secret';
const QUERY_KEY = 'qk-endpoint-secret-5521';

describe('endpoints: credentials only where they belong, never printed', function () {
  this.timeout(90_000);
  const fake = useFakeServer();

  const workspace = async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'skeptic-endpoint-'));
    await put(cwd, 'a.ts', 'export function add(a: number, b: number): number {\n  return a + b;\n}\n');
    return cwd;
  };
  /** Everything the run wrote: its console, and every file in its folder (report, --json, --events). */
  const everything = (cwd: string, run: { stdout: string; stderr: string }) =>
    [run.stdout, run.stderr, ...readdirSync(cwd).map((f) => readFileSync(join(cwd, f), 'utf8'))].join('\n');

  it('a base URL with user info: one clear line, exit 2, no call, never printed', async () => {
    const cwd = await workspace();
    const url = fake.server.url.replace('http://', `http://skeptic:${PASSWORD}@`);
    for (const args of [['review', 'a.ts', '--yes'], ['doctor']]) {
      const run = await runCli(args, { cwd, env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: url } });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /ANTHROPIC_BASE_URL carries credentials in the address/);
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
      assert.ok(!everything(cwd, run).includes(PASSWORD), 'the password was printed');
    }
    assert.equal(fake.server.requests.length, 0, 'no call was made');
  });

  it("a key in the base URL's query reaches no output: console, report, --json, --events, doctor", async () => {
    const cwd = await workspace();
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: `${fake.server.url}/?key=${QUERY_KEY}` };
    const run = await runCli(
      ['review', 'a.ts', '--yes', '--mode', 'lenses', '--max-attempts', '1', '--json', 'r.json', '--events', 'e.jsonl'],
      { cwd, env },
    );
    assert.match(run.stdout + run.stderr, /key=\[redacted\]/, 'the endpoint is shown, its key hidden');
    const doctor = await runCli(['doctor'], { cwd, env });
    assert.match(doctor.stdout, /key=\[redacted\]/);
    assert.ok(!everything(cwd, run).includes(QUERY_KEY), 'the query key was printed');
    assert.ok(!(doctor.stdout + doctor.stderr).includes(QUERY_KEY), 'doctor printed the query key');
  });

  it("a gateway's address with a query (?api-version=…&key=…): every request carries it on /v1/messages, and succeeds", async () => {
    const API_VERSION = '2024-10-01';
    const seen: string[] = [];
    // A gateway in front of the Messages API at /gateway, as Azure's API guidelines have it: 400
    // MissingApiVersionParameter without the query, and here its key in the query too.
    const gateway = await hostile((req, res, body) => {
      const url = new URL(req.url ?? '/', 'http://gateway');
      seen.push(`${req.method} ${url.pathname}${url.search}`);
      const refuse = (status: number, code: string, message: string) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code, message } }));
      };
      if (!url.searchParams.has('api-version'))
        return refuse(
          400,
          'MissingApiVersionParameter',
          'The api-version query parameter (?api-version=) is required for all requests',
        );
      if (url.searchParams.get('key') !== QUERY_KEY) return refuse(401, 'Unauthorized', 'no valid key in the query');
      if (!url.pathname.startsWith('/gateway/')) return refuse(404, 'NotFound', 'Resource not found');
      forward(req, body, new URL(url.pathname.slice('/gateway'.length), fake.server.url), relay(res));
    });
    try {
      const cwd = await workspace();
      const env = {
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: `${gateway.url}/gateway?api-version=${API_VERSION}&key=${QUERY_KEY}`,
      };
      const run = await runCli(
        ['review', 'a.ts', '--yes', '--mode', 'lenses', '--json', 'r.json', '--events', 'e.jsonl'],
        {
          cwd,
          env,
        },
      );
      // Before: the SDK put each path after the query (/gateway?api-version=…&key=…/v1/messages): every call failed.
      assert.equal(run.code, 0, run.stderr);
      // Messages, and the Models API's question about each model's window: every one after the path, with the query.
      const messages = seen.filter((line) => line.startsWith('POST '));
      assert.ok(messages.length > 0 && fake.server.requests.length === messages.length, seen.join('\n'));
      for (const line of seen)
        assert.match(
          line,
          new RegExp(
            `^(POST /gateway/v1/messages|GET /gateway/v1/models/[\\w.-]+)\\?api-version=${API_VERSION}&key=${QUERY_KEY}$`,
          ),
        );
      assert.ok(fake.server.requests.every((r) => r.status === 200));
      assert.match(
        run.stdout,
        /endpoint http:\/\/127\.0\.0\.1:\d+\/gateway\?api-version=\[redacted\]&key=\[redacted\]/,
      );
      assert.ok(!everything(cwd, run).includes(QUERY_KEY), 'the query key was printed');
    } finally {
      await gateway.close();
    }
  });

  for (const [provider, flags] of [
    ['bedrock', ['--region', 'attacker.example/x?']],
    ['vertex', ['--region', 'attacker.example/x?', '--project', 'p-123456']],
    ['vertex', ['--region', 'us-east5', '--project', 'attacker.example/x?']],
  ] as const) {
    it(`${provider} ${flags.join(' ')}: refused before any call, never a host`, async () => {
      const cwd = await workspace();
      const run = await runCli(['review', 'a.ts', '--yes', '--provider', provider, ...flags], {
        cwd,
        env: { AWS_BEARER_TOKEN_BEDROCK: 'ABSKtesttesttesttesttesttest', CLAUDE_CODE_SKIP_VERTEX_AUTH: '1' },
      });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /--(region|project) must be a/);
      assert.equal(fake.server.requests.length, 0);
    });
  }
});
