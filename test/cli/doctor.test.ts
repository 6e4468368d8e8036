import assert from 'node:assert/strict';
import { fixtureWorkspace, runCli } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';

const AWS = {
  accessKeyId: 'AKIAFAKESKEPTIC00002',
  secretAccessKey: 'fakeDoctorSecretKey/000000000000000000',
  region: 'eu-west-1',
};

describe('skeptic doctor', function () {
  this.timeout(60_000);
  const fake = useFakeServer('shop.scenario.json', { aws: { ...AWS, apiKeys: [] } });
  const bedrock = {
    CLAUDE_CODE_USE_BEDROCK: '1',
    AWS_REGION: AWS.region,
    AWS_ACCESS_KEY_ID: AWS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey,
  };
  const doctor = async (args: string[], env: Record<string, string>) =>
    runCli(['doctor', ...args], {
      cwd: await fixtureWorkspace('shop'),
      env: { ANTHROPIC_BEDROCK_BASE_URL: fake.server.url, ...env },
    });

  it('names the provider, what chose it, the region, the credentials’ source, the models and each capability, without a call or a secret', async () => {
    const run = await doctor([], bedrock);
    assert.equal(run.code, 0, run.stderr);
    const out = run.stdout;
    assert.match(out, /^Provider: +bedrock: Amazon Bedrock \(chosen by CLAUDE_CODE_USE_BEDROCK\)$/m);
    assert.match(out, /^Region: +eu-west-1 \(AWS_REGION\)$/m);
    assert.match(out, /^Endpoint: +http:\/\/127\.0\.0\.1:\d+ \(ANTHROPIC_BEDROCK_BASE_URL\)$/m);
    assert.match(
      out,
      /^Credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, access key …0002, signed with SigV4$/m,
    );
    assert.match(out, /^ {2}global\.anthropic\.claude-sonnet-5-5-v1 \(curate, analyze, review\)$/m);
    assert.match(out, /^ {2}message batches +no +/m);
    assert.match(out, /^ {2}prompt cache +yes +Bedrock docs/m);
    assert.match(out, /^ {2}dollar prices +yes +Bedrock pricing/m);
    assert.ok(
      !out.includes(AWS.secretAccessKey) && !run.stderr.includes(AWS.secretAccessKey),
      'the secret is never printed',
    );
    assert.ok(!out.includes(AWS.accessKeyId), 'nor the whole key id');
    assert.equal(fake.server.requests.length, 0, 'no call without --probe');
  });

  it('a setup that cannot work says why, and exits 2', async () => {
    const run = await doctor([], { CLAUDE_CODE_USE_BEDROCK: '1', AWS_REGION: 'us-east-1' });
    assert.equal(run.code, 2);
    assert.match(
      run.stdout,
      /^Credentials: not usable: no AWS credentials for Amazon Bedrock \(.+\); export AWS_PROFILE/m,
    );
    const model = await doctor(['--step-model', 'review=claude-sonnet-4-5'], bedrock);
    assert.equal(model.code, 2);
    assert.match(model.stdout, /^Problem: +"claude-sonnet-4-5" is not an Amazon Bedrock model id/m);
    assert.equal(fake.server.requests.length, 0);
  });

  it('--probe asks before its paid calls: without a terminal it needs --yes, and sends nothing', async () => {
    const run = await doctor(['--probe'], bedrock);
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /^skeptic: --probe sends 2 calls of one output token to bedrock \(paid calls\); pass --yes to send them$/m,
    );
    assert.equal(fake.server.requests.length, 0);
  });

  it('--probe --yes: one minimal call per model; a model the platform rejects is named with its fix', async () => {
    const ok = await doctor(['--probe', '--yes'], bedrock);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /^ {2}global\.anthropic\.claude-sonnet-5-5-v1: ok \(\d+ ms\)$/m);
    assert.match(ok.stdout, /^ {2}global\.anthropic\.claude-opus-5-5-v1: ok \(\d+ ms\)$/m);
    assert.deepEqual(fake.server.requests.map((r) => [r.path, (r.body as { max_tokens: number }).max_tokens]).sort(), [
      ['/model/global.anthropic.claude-opus-5-5-v1/invoke', 1],
      ['/model/global.anthropic.claude-sonnet-5-5-v1/invoke', 1],
    ]);
    fake.server.reset();
    const bad = await doctor(
      ['--probe', '--yes', '--step-model', 'review=global.anthropic.claude-mystery-9-v1'],
      bedrock,
    );
    assert.equal(bad.code, 2);
    assert.match(
      bad.stdout,
      /^ {2}global\.anthropic\.claude-mystery-9-v1: failed: HTTP 400: The provided model identifier is invalid\.; this model id is not served here: choose another with --model or --step-model/m,
    );
    assert.ok(!bad.stdout.includes(AWS.secretAccessKey));
  });
});
