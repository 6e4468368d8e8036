import assert from 'node:assert/strict';
import { buildJob } from '../../src/app/buildJob';
import { checkProvider } from '../../src/app/jobChecks';
import { costUsd, priceOf } from '../../src/model/pricing';
import {
  batchRefusal,
  CAPABILITIES,
  costCeilingRefusal,
  modelIdProblem,
  PROVIDERS,
  ProviderError,
  providerModelId,
  resolveProvider,
  type Env,
  type ProviderChoices,
} from '../../src/model/providers';
import { redact } from '../../src/model/redact';

const via: ProviderChoices['via'] = {
  provider: '--provider',
  region: '--region',
  project: '--project',
  profile: '--profile',
  baseUrl: 'ANTHROPIC_BASE_URL',
};
const resolve = (env: Env, choices: Partial<ProviderChoices> = {}) => resolveProvider({ via, ...choices }, env);
const refuses = (env: Env, choices: Partial<ProviderChoices>, line: RegExp) =>
  assert.throws(
    () => resolve(env, choices),
    (err: Error) => err instanceof ProviderError && line.test(err.message),
  );

describe('providers: which one, and with what', () => {
  it('follows Claude Code’s environment when nothing is chosen, with its region, profile, endpoint and skip-auth', () => {
    assert.deepEqual(resolve({}), { provider: 'anthropic', chosenBy: 'the default', skipAuth: false });
    assert.deepEqual(
      resolve({
        CLAUDE_CODE_USE_BEDROCK: '1',
        AWS_REGION: 'eu-west-1',
        AWS_PROFILE: 'dev',
        ANTHROPIC_BEDROCK_BASE_URL: 'https://gw',
        CLAUDE_CODE_SKIP_BEDROCK_AUTH: '1',
        ANTHROPIC_BASE_URL: 'https://ignored',
      }),
      {
        provider: 'bedrock',
        chosenBy: 'CLAUDE_CODE_USE_BEDROCK',
        region: { value: 'eu-west-1', from: 'AWS_REGION' },
        profile: { value: 'dev', from: 'AWS_PROFILE' },
        baseUrl: { value: 'https://gw', from: 'ANTHROPIC_BEDROCK_BASE_URL' },
        skipAuth: true,
      },
    );
    assert.deepEqual(
      resolve({ CLAUDE_CODE_USE_VERTEX: 'true', CLOUD_ML_REGION: 'global', ANTHROPIC_VERTEX_PROJECT_ID: 'p1' }),
      {
        provider: 'vertex',
        chosenBy: 'CLAUDE_CODE_USE_VERTEX',
        region: { value: 'global', from: 'CLOUD_ML_REGION' },
        project: { value: 'p1', from: 'ANTHROPIC_VERTEX_PROJECT_ID' },
        skipAuth: false,
      },
    );
    // "0" and "false" switch it off, as for Claude Code.
    assert.equal(resolve({ CLAUDE_CODE_USE_BEDROCK: '0' }).provider, 'anthropic');
    assert.equal(
      resolve({ AWS_DEFAULT_REGION: 'us-west-2' }, { provider: 'bedrock' }).region?.from,
      'AWS_DEFAULT_REGION',
    );
  });

  it('an explicit choice wins over the environment, and its region over the environment’s', () => {
    const c = resolve(
      { CLAUDE_CODE_USE_VERTEX: '1', AWS_REGION: 'us-east-1' },
      { provider: 'bedrock', region: 'ap-south-1' },
    );
    assert.equal(c.provider, 'bedrock');
    assert.equal(c.chosenBy, '--provider');
    assert.deepEqual(c.region, { value: 'ap-south-1', from: '--region' });
    assert.equal(
      resolve({ ANTHROPIC_BASE_URL: 'http://localhost:11434' }, { provider: 'compatible' }).baseUrl?.value,
      'http://localhost:11434',
    );
  });

  it('says in one line what cannot work, naming the fix', () => {
    refuses(
      {},
      { provider: 'openai' },
      /^--provider must be one of anthropic, bedrock, vertex, compatible, vscode-lm; got "openai"$/,
    );
    refuses({ CLAUDE_CODE_USE_BEDROCK: '1' }, {}, /needs an AWS region: pass --region or export AWS_REGION/);
    refuses({ CLAUDE_CODE_USE_VERTEX: '1' }, {}, /needs a region: pass --region or export CLOUD_ML_REGION/);
    refuses(
      { CLAUDE_CODE_USE_VERTEX: '1', CLOUD_ML_REGION: 'global', CLAUDE_CODE_SKIP_VERTEX_AUTH: '1' },
      {},
      /needs a project/,
    );
    refuses(
      {},
      { provider: 'compatible' },
      /^an Anthropic-compatible server needs its address: export ANTHROPIC_BASE_URL/,
    );
    refuses(
      {},
      { provider: 'compatible', via: { ...via, baseUrl: 'skeptic.baseUrl' } },
      /set skeptic\.baseUrl or export ANTHROPIC_BASE_URL/,
    );
  });

  it('maps Skeptic’s model names to each platform’s ids, and lets any other id through', () => {
    assert.equal(providerModelId('bedrock', 'claude-sonnet-5-5'), 'global.anthropic.claude-sonnet-5-5-v1');
    assert.equal(providerModelId('vertex', 'claude-opus-5-5'), 'claude-opus-5-5');
    assert.equal(providerModelId('bedrock', 'us.anthropic.claude-opus-5-5-v1'), 'us.anthropic.claude-opus-5-5-v1');
    assert.equal(providerModelId('compatible', 'qwen3-coder'), 'qwen3-coder');
    assert.match(modelIdProblem('bedrock', 'claude-sonnet-5-5')!, /not an Amazon Bedrock model id/);
    assert.match(modelIdProblem('vertex', 'global.anthropic.claude-sonnet-5-5-v1')!, /not a Google Vertex AI model id/);
    assert.match(modelIdProblem('anthropic', 'claude-sonnet-5-5@20261001')!, /not an Anthropic API model id/);
    assert.equal(
      modelIdProblem('bedrock', 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc'),
      undefined,
    );
    assert.equal(modelIdProblem('vertex', 'claude-sonnet-5-5@20261001'), undefined);
    assert.equal(modelIdProblem('compatible', 'anything/at:all'), undefined);
  });

  it('a job on Bedrock calls the platform’s ids and prices a regional profile 10% above the global one', () => {
    const provider = resolve({ CLAUDE_CODE_USE_BEDROCK: '1', AWS_REGION: 'us-east-1' });
    const job = buildJob(
      {
        cwd: '/x',
        scope: { kind: 'paths', paths: [] },
        modelPerStep: { challenge: 'us.anthropic.claude-opus-5-5-v1' },
      },
      { apiKey: '', provider },
    );
    assert.equal(job.models.review, 'global.anthropic.claude-sonnet-5-5-v1');
    assert.equal(job.models.challenge, 'us.anthropic.claude-opus-5-5-v1');
    const tokens = {
      input_tokens: 1_000_000,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    };
    assert.equal(costUsd(job.models.synthesize, tokens, job.prices), priceOf('opus')!.input);
    assert.ok(Math.abs(costUsd(job.models.challenge, tokens, job.prices)! - 1.1 * priceOf('opus')!.input) < 1e-9);
    // A price the user gave for the exact id stands as it is.
    const own = buildJob(
      {
        cwd: '/x',
        scope: { kind: 'paths', paths: [] },
        model: 'us.anthropic.claude-opus-5-5-v1',
        prices: { 'us.anthropic.claude-opus-5-5-v1': { input: 1, output: 1 } },
      },
      { apiKey: '', provider },
    );
    assert.equal(costUsd('us.anthropic.claude-opus-5-5-v1', tokens, own.prices), 1);
    const vertex = buildJob(
      { cwd: '/x', scope: { kind: 'paths', paths: [] } },
      {
        apiKey: '',
        provider: resolve({
          CLAUDE_CODE_USE_VERTEX: '1',
          CLOUD_ML_REGION: 'us-east5',
          ANTHROPIC_VERTEX_PROJECT_ID: 'p',
        }),
      },
    );
    assert.ok(Math.abs(costUsd(vertex.models.review, tokens, vertex.prices)! - 1.1 * priceOf('sonnet')!.input) < 1e-9);
  });

  it('has a capability table for every provider, each fact with its source, and refuses --batch where there are no batches', () => {
    for (const p of PROVIDERS) {
      const { value, source } = CAPABILITIES[p];
      assert.deepEqual(Object.keys(source).sort(), Object.keys(value).sort(), p);
      assert.equal(batchRefusal(p) === undefined, value.batches, p);
    }
    assert.match(
      batchRefusal('bedrock')!,
      /^--batch \(skeptic\.batch\) needs the Message Batches API, which Amazon Bedrock does not have/,
    );
    assert.equal(CAPABILITIES.compatible.value.promptCache, false);
  });

  it("refuses a dollar ceiling where the calls are not billed in dollars (the editor's plan), and only there", () => {
    for (const p of PROVIDERS) assert.equal(costCeilingRefusal(p) === undefined, CAPABILITIES[p].value.listPrices, p);
    assert.deepEqual(
      PROVIDERS.filter((p) => costCeilingRefusal(p)),
      ['vscode-lm'],
    );
    const job = buildJob(
      { cwd: '/r', scope: { kind: 'paths', paths: ['.'] }, maxCostUsd: 1 },
      { apiKey: '', provider: resolve({}, { provider: 'vscode-lm' }) },
    );
    assert.throws(
      () => checkProvider(job),
      (e: Error) =>
        e instanceof ProviderError &&
        /^--max-cost \(skeptic\.maxCostUsd\) is a dollar ceiling, and the editor's language models \(VS Code\) are billed by the editor's plan/.test(
          e.message,
        ),
    );
    // Without the ceiling the same job is fine, and so is the ceiling on a provider that bills in dollars.
    assert.doesNotThrow(() => checkProvider({ ...job, maxCostUsd: undefined }));
    assert.doesNotThrow(() => checkProvider({ ...job, provider: { ...job.provider, provider: 'anthropic' } }));
  });
});

describe('redaction of cloud credentials', () => {
  it('strikes AWS secret keys, session tokens, signatures, Bedrock API keys and Google access tokens from a message', () => {
    const echoed = [
      'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      '"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"',
      'X-Amz-Security-Token: IQoJb3JpZ2luX2VjEXAMPLETOKEN//////////wEaCXVzLWVhc3QtMSJHMEUCIQ',
      'sessionToken=FwoGZXIvYXdzEXAMPLE',
      'Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261202/us-east-1/bedrock/aws4_request, SignedHeaders=host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
      'key ABSKQmVkcm9ja0FQSUtleS1leGFtcGxlMTIzNDU2Nzg5MA==',
      'bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29tLz9BY3Rpb249Q2FsbFdpdGhCZWFyZXJUb2tlbg',
      'token ya29.a0AfH6SMBexampleGoogleAccessToken-1234_abcd',
    ].join('\n');
    const out = redact(echoed);
    for (const secret of [
      'wJalrXUtnFEMI',
      'IQoJb3JpZ2lu',
      'FwoGZXIvYXdz',
      '5d672d79c15b',
      'QmVkcm9ja0FQSUtleS',
      'YmVkcm9jay5hbWF6',
      'a0AfH6SMB',
    ])
      assert.ok(!out.includes(secret), `${secret} is gone: ${out}`);
    assert.match(
      out,
      /Credential=AKIDEXAMPLE\/20261202\/us-east-1\/bedrock\/aws4_request/,
      'the credential scope stays: it says which key and region',
    );
  });

  it('strikes a run’s own secrets wherever they appear', () => {
    assert.equal(
      redact('failed with s3cr3t-session-value in the text', ['s3cr3t-session-value']),
      'failed with [redacted] in the text',
    );
  });
});
