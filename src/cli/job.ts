/**
 * The job the flags describe, the same for `skeptic review` and `skeptic plan`: the choices as flagged, with
 * what the process adds (its folder, the endpoint from ANTHROPIC_BASE_URL, the --prices file read, the
 * repository's state folder), so the plan counts what the review will ask.
 */
import { resolveScope } from '../app/autoScope';
import { buildJob } from '../app/buildJob';
import type { ReviewJob } from '../app/job';
import { repositoryStateDir } from '../app/state';
import type { ScopeSpec } from '../model/scope';
import type { ReviewFlags } from './args';
import type { CliIo } from './io';
import { loadPrices } from './prices';

/** `apiKey`: '' for a plan, which makes no call. */
export async function jobFromFlags(
  flags: ReviewFlags & { choices: { scope: ScopeSpec } },
  io: Pick<CliIo, 'cwd' | 'env'>,
  apiKey: string,
): Promise<ReviewJob & { stateDir: string }> {
  const prices = await loadPrices(io.cwd, flags.pricesFile);
  const stateDir = await repositoryStateDir(io.cwd, io.env);
  const baseUrl = io.env.ANTHROPIC_BASE_URL;
  const job = buildJob(
    { ...flags.choices, cwd: io.cwd, ...(baseUrl ? { baseUrl } : {}), ...(prices ? { prices } : {}) },
    { apiKey, stateDir },
  );
  return { ...job, stateDir };
}

/** With no path and no scope flag, the detected scope; its line (which and why) is the first of the output. */
export async function chooseScope(
  flags: ReviewFlags,
  io: Pick<CliIo, 'cwd' | 'env'>,
  out: NodeJS.WritableStream,
): Promise<ReviewFlags & { choices: { scope: ScopeSpec } }> {
  const { target, line } = await resolveScope({ ...flags.choices, cwd: io.cwd }, io.env);
  if (line) out.write(`${line}\n`);
  return { ...flags, choices: { ...flags.choices, scope: target.scope } };
}
