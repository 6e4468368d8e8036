/**
 * The fixture's review through each provider, by the built CLI against the fake's routes for each platform
 * (test/fake-anthropic/platforms.ts), each run with an empty prompt cache and no result cache: its first line,
 * the findings (and whether they are the first-party run's), the calls, the cache warm-up calls (max_tokens 1),
 * the bodies that carry cache_control, the tokens and the cost. `npm run bench:providers`.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { StagedJsonReport } from '../src/report/json';
import { formatUsd } from '../src/model/pricing';
import { startFakeAnthropic } from '../test/fake-anthropic/server';
import type { Scenario } from '../test/fake-anthropic/scenario';
import { NO_PROVIDER_ENV } from '../test/helpers/cli';

const REPO = resolve(__dirname, '../..');
const AWS = {
  accessKeyId: 'AKIAFAKESKEPTICBENCH1',
  secretAccessKey: 'benchSecretKey/0000000000000000000000',
  region: 'us-east-1',
};

async function main(): Promise<void> {
  const scenario = JSON.parse(await readFile(join(REPO, 'test/fixtures/shop.scenario.json'), 'utf8')) as Scenario;
  const fake = await startFakeAnthropic({ scenario, aws: AWS, gcpProject: 'skeptic-bench' });
  const runs: [string, Record<string, string>, string[]][] = [
    ['anthropic', { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.url }, []],
    [
      'bedrock (SigV4)',
      {
        CLAUDE_CODE_USE_BEDROCK: '1',
        AWS_REGION: AWS.region,
        AWS_ACCESS_KEY_ID: AWS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey,
        ANTHROPIC_BEDROCK_BASE_URL: fake.url,
      },
      [],
    ],
    [
      'vertex (metadata-server credentials)',
      {
        CLAUDE_CODE_USE_VERTEX: '1',
        CLOUD_ML_REGION: 'global',
        ANTHROPIC_VERTEX_BASE_URL: `${fake.url}/v1`,
        GCE_METADATA_HOST: new URL(fake.url).host,
        METADATA_SERVER_DETECTION: 'assume-present',
      },
      [],
    ],
    ['compatible (limited)', { ANTHROPIC_BASE_URL: `${fake.url}/limited` }, ['--provider', 'compatible']],
  ];
  let reference: string | undefined;
  try {
    for (const [name, env, args] of runs) {
      fake.reset();
      const cwd = await mkdtemp(join(tmpdir(), 'skeptic-bench-providers-'));
      await cp(join(REPO, 'test/fixtures/shop'), join(cwd, 'shop'), { recursive: true });
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [join(REPO, 'dist/cli.js'), 'review', 'shop', '--json', 'r.json', '--no-cache', ...args],
        { cwd, env: { ...process.env, ...NO_PROVIDER_ENV, ...env } },
      );
      const json = JSON.parse(await readFile(join(cwd, 'r.json'), 'utf8')) as StagedJsonReport;
      const findings = json.findings.map((f) => `${f.file}:${f.line} ${f.rule_id} ${f.priority}`).sort();
      reference ??= findings.join('\n');
      const bodies = fake.requests.map((r) => r.body as { max_tokens?: number });
      const sum = (k: 'input_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens') =>
        fake.requests.reduce((n, r) => n + (r.usage?.[k] ?? 0), 0);
      console.log(`${name}\n  ${stdout.split('\n')[0]}`);
      console.log(
        `  findings ${findings.length}${findings.join('\n') === reference ? ' (the same as the first-party run)' : ' (DIFFERENT from the first-party run)'}: ${findings.join(', ')}`,
      );
      console.log(
        `  calls ${fake.requests.length}, of them cache warm-ups ${bodies.filter((b) => b.max_tokens === 1).length}; bodies with cache_control ${bodies.filter((b) => JSON.stringify(b).includes('"cache_control"')).length}`,
      );
      console.log(
        `  tokens in ${sum('input_tokens')}, cache read ${sum('cache_read_input_tokens')}, cache written ${sum('cache_creation_input_tokens')}; cost ${json.usage.cost_usd === null ? 'unknown' : formatUsd(json.usage.cost_usd)}`,
      );
    }
  } finally {
    await fake.close();
  }
}

void main();
