/**
 * `skeptic doctor` (and the extension's *Check Setup*): the resolved provider, where each of its settings came
 * from, the credentials' source (never the secret), the endpoint, the model ids, and each capability with where
 * we know it from. With a probe, one minimal call per model (max_tokens 1: paid, so the surface asks first), each
 * failure with its fix. Nothing here reads code or sends any.
 */
import { CAPABILITIES, needsApiKey, PROVIDER_NAMES, type Capability, type ProviderConfig } from '../model/providers';
import type { Connection } from '../engine/connect';
import { checkProvider, modelsInUse } from './jobChecks';
import { connectJob } from './jobConnection';
import type { ReviewJob } from './job';

export interface Diagnosis {
  lines: string[];
  /** The connection when the credentials resolved; null with the reason in `lines` otherwise. */
  connection: Connection | null;
  /** Model id → the steps or roles that use it. */
  models: Map<string, string[]>;
  /** What stops a review here before any call (a model id the provider cannot take, say), one line each. */
  problems: string[];
}

const LABELS: Record<Capability, string> = {
  structuredOutputs: 'structured outputs',
  forcedToolChoice: 'forced tool choice',
  promptCache: 'prompt cache',
  cacheTtls: 'cache lifetimes',
  tokenCounting: 'token counting',
  batches: 'message batches',
  listPrices: 'dollar prices',
};

const sourced = (label: string, s: { value: string; from: string } | undefined) =>
  s ? [`${label.padEnd(13)}${s.value} (${s.from})`] : [];

export type DiagnosedJob = Pick<
  ReviewJob,
  'provider' | 'apiKey' | 'requestTimeout' | 'mode' | 'models' | 'lens' | 'batch'
>;

/** `keyFix`: how this surface sets the Anthropic key, for the line a missing one gets. */
export async function diagnose(job: DiagnosedJob, keyFix: string): Promise<Diagnosis> {
  const p: ProviderConfig = job.provider;
  const models = modelsInUse(job);
  const lines = [
    `Provider:    ${p.provider}: ${PROVIDER_NAMES[p.provider]} (chosen by ${p.chosenBy})`,
    ...sourced('Region:', p.region),
    ...sourced('Project:', p.project),
    ...sourced('Profile:', p.profile),
  ];
  const problems: string[] = [];
  if (needsApiKey(p.provider) && !job.apiKey) problems.push(`no Anthropic API key: ${keyFix}`);
  try {
    checkProvider(job);
  } catch (err) {
    problems.push((err as Error).message);
  }
  let connection: Connection | null = null;
  try {
    connection = await connectJob(job);
    lines.push(`Endpoint:    ${connection.endpoint}${p.baseUrl ? ` (${p.baseUrl.from})` : ''}`);
    lines.push(`Credentials: ${connection.credentials}`);
  } catch (err) {
    lines.push(`Credentials: not usable: ${err instanceof Error ? err.message : String(err)}`);
  }
  lines.push('Models:');
  for (const [id, roles] of models) lines.push(`  ${id} (${roles.join(', ')})`);
  lines.push('Capabilities:');
  const { value, source } = CAPABILITIES[p.provider];
  for (const key of Object.keys(LABELS) as Capability[]) {
    const v = value[key];
    const shown = Array.isArray(v) ? (v.length ? v.join(', ') : 'none') : v ? 'yes' : 'no';
    lines.push(`  ${LABELS[key].padEnd(20)}${shown.padEnd(9)}${source[key]}`);
  }
  return { lines, connection, models, problems };
}

/** The diagnosis as printed: its lines, then each problem. */
export function diagnosisLines(d: Diagnosis): string[] {
  return [...d.lines, ...d.problems.map((p) => `Problem:     ${p}`)];
}

/** Whether a review here can start: credentials resolved and nothing in the way. */
export function usable(d: Diagnosis): d is Diagnosis & { connection: Connection } {
  return d.connection !== null && d.problems.length === 0;
}

export function probeLines(results: ProbeResult[]): string[] {
  return ['Probe:', ...results.map((r) => `  ${r.line}`)];
}

/** The whole check as one surface without a terminal runs it (the extension): the diagnosis, and the probe if asked. */
export async function checkSetup(
  job: DiagnosedJob,
  o: { keyFix: string; probe: boolean; signal: AbortSignal },
): Promise<{ lines: string[]; ok: boolean }> {
  const d = await diagnose(job, o.keyFix);
  const lines = diagnosisLines(d);
  if (!usable(d)) return { lines, ok: false };
  if (!o.probe) return { lines, ok: true };
  const results = await probe(d.connection, d.models.keys(), o.signal);
  return { lines: [...lines, ...probeLines(results)], ok: results.every((r) => r.ok) };
}

export interface ProbeResult {
  model: string;
  ok: boolean;
  /** "ok (812 ms)", or the failure and its fix. */
  line: string;
}

/** One call per model of one output token, through the run's own client (its retries, its error wording). */
export async function probe(
  connection: Connection,
  models: Iterable<string>,
  signal: AbortSignal,
): Promise<ProbeResult[]> {
  const { ModelClient, FatalApiError } = await import('../engine/client');
  const client = new ModelClient({ connection, maxConcurrency: 4, maxAttempts: 2, signal });
  return Promise.all(
    [...models].map(async (model) => {
      const started = Date.now();
      try {
        await client.create(
          { model, max_tokens: 1, messages: [{ role: 'user', content: 'Reply with one word.' }] },
          { label: `probe ${model}`, step: 'probe' },
        );
        return { model, ok: true, line: `${model}: ok (${Date.now() - started} ms)` };
      } catch (err) {
        const why = client.describe(err);
        const failure = probeFailure(err, connection.errors, FatalApiError);
        return { model, ok: false, line: `${model}: failed: ${why}; ${fixFor(failure, connection)}` };
      }
    }),
  );
}

type ProbeFailure = 'credentials' | 'model' | 'unreachable' | 'busy' | 'other';

/** What a probe's failure was, by the error's class and HTTP status (the run's client keeps the status of a refusal). */
function probeFailure(
  err: unknown,
  e: Connection['errors'],
  Fatal: typeof import('../engine/client').FatalApiError,
): ProbeFailure {
  if (err instanceof e.APIConnectionError) return 'unreachable';
  const status = err instanceof Fatal ? err.status : err instanceof e.APIError ? (err.status ?? null) : null;
  if (status === 401 || status === 403) return 'credentials';
  // What else no retry fixes: an unknown model (a 404, or Bedrock's 400 for an invalid id).
  if (err instanceof Fatal) return 'model';
  if (status === 429 || (status !== null && status >= 500)) return 'busy';
  return 'other';
}

/** What to do about a failed probe, by what went wrong. */
function fixFor(failure: ProbeFailure, c: Connection): string {
  const provider = c.provider.provider;
  if (failure === 'credentials')
    return provider === 'bedrock'
      ? 'the credentials were refused: check they are current and allow bedrock:InvokeModel on this model (and that the model is enabled in this region)'
      : provider === 'vertex'
        ? 'the credentials were refused: the account needs the Vertex AI User role in the project, with the model enabled in Model Garden'
        : 'the key was refused: set a current key (ANTHROPIC_API_KEY, or Skeptic: Set API Key)';
  if (failure === 'model')
    return 'this model id is not served here: choose another with --model or --step-model (skeptic.model, skeptic.modelPerStep)';
  if (failure === 'unreachable')
    return `the endpoint ${c.endpoint} could not be reached: check the region, the base URL and the network`;
  if (failure === 'busy') return 'the provider is busy or limited: try again later';
  return 'see the message above';
}
