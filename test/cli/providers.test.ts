import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StagedJsonReport } from '../../src/report/json';
import { fixtureWorkspace, loadJson, runCli } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';

type Json = StagedJsonReport;
const key = (f: Json['findings'][number]) => `${f.file}:${f.line} ${f.rule_id} ${f.priority}`;

const AWS = {
  accessKeyId: 'AKIAFAKESKEPTIC00001',
  secretAccessKey: 'fakeSecretKeyForSkepticTests/0000000000',
  region: 'us-east-1',
};
const BEDROCK_KEY = 'ABSKZmFrZS1iZWRyb2NrLWFwaS1rZXktZm9yLXRlc3Rz';

describe('the fixture review through each provider, against the fake platforms', function () {
  this.timeout(90_000);
  const fake = useFakeServer('shop.scenario.json', {
    aws: { ...AWS, apiKeys: [BEDROCK_KEY] },
    gcpProject: 'skeptic-test',
  });
  let firstParty: string[];

  const review = async (env: Record<string, string>, args: string[] = [], paths = ['shop']) => {
    const cwd = await fixtureWorkspace('shop');
    const run = await runCli(['review', ...paths, '--json', 'result.json', ...args], { cwd, env });
    return {
      run,
      cwd,
      findings: async () => (await loadJson<Json>(join(cwd, 'result.json'))).findings.map(key).sort(),
    };
  };
  const bodies = () => fake.server.requests.map((r) => r.body as Record<string, unknown>);
  /** Cache warm-up calls: a unit's prefix sent for one output token. */
  const primes = () => bodies().filter((b) => b.max_tokens === 1).length;
  const withCacheControl = () => bodies().filter((b) => JSON.stringify(b).includes('"cache_control"')).length;
  let firstPartyPrimes: number;

  before(async function () {
    const { run, findings } = await review({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.server.url });
    assert.equal(run.code, 0, run.stderr);
    firstParty = await findings();
    assert.equal(firstParty.length, 7, 'the fixture plants seven findings');
    // What the limited server must not see, seen here: so the checks below can fail.
    firstPartyPrimes = primes();
    assert.ok(firstPartyPrimes > 0, 'the first-party run warms the cache');
    assert.ok(withCacheControl() > 0, 'the first-party run marks cache breakpoints');
  });

  it('Bedrock, as Claude Code sets it up (CLAUDE_CODE_USE_BEDROCK, AWS_REGION, keys): SigV4-signed invokes, the same findings', async () => {
    const { run, findings } = await review({
      CLAUDE_CODE_USE_BEDROCK: '1',
      AWS_REGION: AWS.region,
      AWS_ACCESS_KEY_ID: AWS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey,
      ANTHROPIC_BEDROCK_BASE_URL: fake.server.url,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout.split('\n')[0]!,
      /^Provider: bedrock \(Amazon Bedrock, chosen by CLAUDE_CODE_USE_BEDROCK; region us-east-1, endpoint http:\/\/127\.0\.0\.1:\d+\) · models: global\.anthropic\.claude-sonnet-5-5-v1 \(curate, analyze, review\), global\.anthropic\.claude-opus-5-5-v1 \(challenge, synthesize\)$/,
    );
    assert.deepEqual(await findings(), firstParty);
    const requests = fake.server.requests;
    assert.ok(
      requests.length > 0 &&
        requests.every((r) => r.platform === 'bedrock' && r.status === 200 && r.auth === 'AWS4-HMAC-SHA256'),
    );
    assert.deepEqual([...new Set(requests.map((r) => r.path))].sort(), [
      '/model/global.anthropic.claude-opus-5-5-v1/invoke',
      '/model/global.anthropic.claude-sonnet-5-5-v1/invoke',
    ]);
    assert.ok(bodies().every((b) => b.anthropic_version === 'bedrock-2023-05-31' && !('model' in b)));
    // Bedrock has the prompt cache: the layout's breakpoints are sent and read.
    assert.ok(requests.some((r) => (r.usage?.cache_read_input_tokens ?? 0) > 0));
  });

  it('Bedrock with a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) and the flags: bearer invokes, the same findings', async () => {
    const { run, findings } = await review(
      { AWS_BEARER_TOKEN_BEDROCK: BEDROCK_KEY, ANTHROPIC_BEDROCK_BASE_URL: fake.server.url },
      ['--provider', 'bedrock', '--region', 'us-east-1'],
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Provider: bedrock \(Amazon Bedrock, chosen by --provider; region us-east-1/);
    assert.deepEqual(await findings(), firstParty);
    assert.ok(fake.server.requests.every((r) => r.platform === 'bedrock' && r.auth === 'Bearer'));
  });

  it('Vertex AI with Application Default Credentials from the metadata server: rawPredict, the same findings', async () => {
    const host = new URL(fake.server.url).host;
    const { run, findings } = await review({
      CLAUDE_CODE_USE_VERTEX: '1',
      CLOUD_ML_REGION: 'global',
      ANTHROPIC_VERTEX_BASE_URL: `${fake.server.url}/v1`,
      GCE_METADATA_HOST: host,
      METADATA_SERVER_DETECTION: 'assume-present',
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^Provider: vertex \(Google Vertex AI, chosen by CLAUDE_CODE_USE_VERTEX; region global.*models: claude-sonnet-5-5 \(curate, analyze, review\), claude-opus-5-5 \(challenge, synthesize\)$/m,
    );
    assert.deepEqual(await findings(), firstParty);
    const requests = fake.server.requests;
    assert.ok(requests.every((r) => r.platform === 'vertex' && r.status === 200 && r.auth === 'Bearer'));
    assert.deepEqual(
      [...new Set(requests.map((r) => r.path))].sort(),
      ['opus', 'sonnet'].map(
        (m) => `/v1/projects/skeptic-test/locations/global/publishers/anthropic/models/claude-${m}-5-5:rawPredict`,
      ),
    );
    assert.ok(bodies().every((b) => b.anthropic_version === 'vertex-2023-10-16' && !('model' in b)));
  });

  it('a limited compatible server (no forced tool choice, no output formats, no cache): submit tools by instruction, the same findings', async () => {
    // No path: the scope is detected, and its line comes second, after where the calls go.
    const { run, findings } = await review(
      { ANTHROPIC_BASE_URL: `${fake.server.url}/limited` },
      ['--provider', 'compatible'],
      [],
    );
    assert.equal(run.code, 0, run.stderr);
    const [first, second] = run.stdout.split('\n');
    assert.match(
      first!,
      /^Provider: compatible \(an Anthropic-compatible server, chosen by --provider; endpoint http:\/\/127\.0\.0\.1:\d+\/limited\) · models: /,
    );
    assert.match(second!, /^Scope: the whole folder \(auto: /);
    assert.deepEqual(await findings(), firstParty);
    const requests = fake.server.requests;
    assert.ok(requests.length > 0 && requests.every((r) => r.platform === 'limited' && r.status === 200));
    for (const body of bodies()) {
      assert.equal((body.output_config as { format?: unknown } | undefined)?.format, undefined, 'no output format');
      assert.equal(body.tool_choice, undefined, 'no tool_choice');
    }
    assert.equal(withCacheControl(), 0, 'no cache_control block reaches a server without a prompt cache');
    // Nothing can be cached there, so nothing is warmed: every call is a unit's own.
    assert.equal(primes(), 0, 'no cache warm-up call');
  });

  it('a Bedrock endpoint that echoes the signature and the session token: neither reaches the report, the JSON, the events or the console', async () => {
    const sessionToken = 'IQoJb3JpZ2luX2VjFakeSessionTokenForSkepticTests0000000000';
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'echo_auth', status: 400, match: { record: 'Step1Record' } }],
    });
    const { run, cwd } = await review(
      {
        CLAUDE_CODE_USE_BEDROCK: '1',
        AWS_REGION: AWS.region,
        AWS_ACCESS_KEY_ID: AWS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey,
        AWS_SESSION_TOKEN: sessionToken,
        ANTHROPIC_BEDROCK_BASE_URL: fake.server.url,
      },
      ['--events', 'events.jsonl'],
    );
    assert.equal(run.code, 3, run.stderr);
    const echoed = fake.server.requests.filter((r) => r.fault === 'echo_auth');
    assert.ok(
      echoed.length > 0 && echoed.every((r) => r.auth === 'AWS4-HMAC-SHA256'),
      'the fault answered signed calls',
    );
    const written = await Promise.all(
      (await readdir(cwd)).filter((f) => f !== 'shop').map((f) => readFile(join(cwd, f), 'utf8')),
    );
    assert.ok(written.join('').includes('X-Amz-Security-Token: [redacted]'), 'the echo is quoted, struck');
    for (const text of [...written, run.stdout, run.stderr]) {
      assert.ok(!text.includes(sessionToken.slice(8)), 'the session token leaked');
      assert.ok(!text.includes(AWS.secretAccessKey), 'the secret key leaked');
      assert.ok(!/Signature=[0-9a-f]{64}/.test(text), 'a signature leaked');
    }
  });

  it("plans a vscode-lm review with its calls and tokens and no dollar figure (the editor's plan bills them)", async () => {
    const cwd = await fixtureWorkspace('shop');
    const text = await runCli(['plan', 'shop', '--provider', 'vscode-lm'], { cwd });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Estimate: \d+ model calls · .* · billed by the editor's plan, no dollar figure$/m);
    assert.match(text.stdout, /^ {2}review: \d+ calls? · .* · editor's plan$/m);
    assert.doesNotMatch(text.stdout, /\$\d/);
    const json = await runCli(['plan', 'shop', '--provider', 'vscode-lm', '--json'], { cwd });
    const { estimate } = JSON.parse(json.stdout) as {
      estimate: { calls: number; cost_usd: number | null; by_step: Record<string, { cost_usd: number | null }> };
    };
    assert.ok(estimate.calls > 0);
    assert.equal(estimate.cost_usd, null);
    assert.ok(Object.values(estimate.by_step).every((s) => s.cost_usd === null));
    assert.equal(fake.server.requests.length, 0);
  });

  describe('a setup that cannot work is one line, exit 2, before any call', () => {
    const cases: [string, Record<string, string>, string[], RegExp][] = [
      [
        'an unknown provider',
        {},
        ['--provider', 'azure'],
        /^skeptic: --provider must be one of anthropic, bedrock, vertex, compatible, vscode-lm; got "azure"$/,
      ],
      [
        'Bedrock without a region',
        { CLAUDE_CODE_USE_BEDROCK: '1' },
        [],
        /^skeptic: Amazon Bedrock needs an AWS region: pass --region or export AWS_REGION/,
      ],
      [
        'Vertex AI without a project (a gateway adds the credentials)',
        { CLAUDE_CODE_USE_VERTEX: '1', CLOUD_ML_REGION: 'global', CLAUDE_CODE_SKIP_VERTEX_AUTH: '1' },
        [],
        /^skeptic: Google Vertex AI needs a project: pass --project/,
      ],
      [
        'Bedrock without credentials',
        { CLAUDE_CODE_USE_BEDROCK: '1', AWS_REGION: 'us-east-1' },
        [],
        /^skeptic: no AWS credentials for Amazon Bedrock \(.+\); export AWS_PROFILE/,
      ],
      [
        'Vertex AI without credentials',
        { CLAUDE_CODE_USE_VERTEX: '1', CLOUD_ML_REGION: 'global', ANTHROPIC_VERTEX_PROJECT_ID: 'p' },
        [],
        /^skeptic: no Google credentials for Vertex AI \(.+\); run gcloud auth application-default login/,
      ],
      [
        'a first-party model id sent to Bedrock',
        { AWS_BEARER_TOKEN_BEDROCK: BEDROCK_KEY },
        ['--provider', 'bedrock', '--region', 'us-east-1', '--step-model', 'review=claude-sonnet-4-5'],
        /^skeptic: "claude-sonnet-4-5" is not an Amazon Bedrock model id; .+ \(the model for review; set it with --model/,
      ],
      [
        '--batch on Bedrock, which has no Message Batches',
        { AWS_BEARER_TOKEN_BEDROCK: BEDROCK_KEY },
        ['--provider', 'bedrock', '--region', 'us-east-1', '--batch'],
        /^skeptic: --batch \(skeptic\.batch\) needs the Message Batches API, which Amazon Bedrock does not have; review without it/,
      ],
      [
        "a dollar ceiling on the editor's models, which the editor's plan bills",
        {},
        ['--provider', 'vscode-lm', '--max-cost', '1'],
        /^skeptic: --max-cost \(skeptic\.maxCostUsd\) is a dollar ceiling, and the editor's language models \(VS Code\) are billed by the editor's plan, not in dollars Skeptic can count: nothing was sent\. Bound the run by calls with --max-calls/,
      ],
      [
        'both Claude Code switches',
        { CLAUDE_CODE_USE_BEDROCK: '1', CLAUDE_CODE_USE_VERTEX: '1' },
        [],
        /^skeptic: both CLAUDE_CODE_USE_BEDROCK and CLAUDE_CODE_USE_VERTEX are set/,
      ],
    ];
    for (const [what, env, args, line] of cases)
      it(what, async () => {
        const cwd = await fixtureWorkspace('shop');
        const run = await runCli(['review', 'shop', '--json', 'result.json', ...args], {
          cwd,
          env: {
            ANTHROPIC_BEDROCK_BASE_URL: fake.server.url,
            ANTHROPIC_VERTEX_BASE_URL: `${fake.server.url}/v1`,
            ...env,
          },
        });
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr.trim(), line);
        assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
        assert.equal(fake.server.requests.length, 0);
        assert.deepEqual(await readdir(cwd), ['shop']);
      });
  });
});
