/**
 * `skeptic doctor [--probe] [--yes]` with the review's provider and model flags: what a review here would use
 * (src/app/doctor.ts). `--probe` sends one minimal call per model, after asking (they are paid calls).
 */
import { buildJob } from '../app/buildJob';
import { diagnose, diagnosisLines, probe, probeLines, usable } from '../app/doctor';
import { STAGED_STEPS } from '../model/models';
import { LENS_ROLES } from '../model/reviewers';
import { parseCommandLine, PROVIDER_OPTIONS } from './args';
import { flagOf } from '../app/contributions';
import { EXIT, UsageError } from './help';
import { envKey, providerFromFlags } from './job';
import { askYes } from './askYes';
import type { CliIo } from './io';

export const DOCTOR_USAGE = `Usage: skeptic doctor [--provider NAME] [--region R] [--project P] [--profile NAME]
                      [--mode staged|lenses] [--model ID] [--step-model STEP=ID] [--reviewer-model NAME=ID]
                      [--probe [--yes]]

Prints the provider a review here would use, what chose it, its region, project or profile, the endpoint,
where the credentials come from (never the secret), the model ids, and each capability with its source.
--probe also sends one call of one output token to each model and says how each failure is fixed; these are
paid calls, so it asks first (--yes: do not ask). Exit 2 when the setup cannot review.
`;

export async function doctorCommand(argv: string[], io: CliIo): Promise<number> {
  const { values: v } = parseCommandLine(argv, {
    ...PROVIDER_OPTIONS,
    mode: { type: 'string' },
    model: { type: 'string' },
    'step-model': { type: 'string', multiple: true },
    'reviewer-model': { type: 'string', multiple: true },
    probe: { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
    help: { type: 'boolean', short: 'h' },
  });
  if (v.help) {
    io.stdout.write(DOCTOR_USAGE);
    return EXIT.ok;
  }
  if (v.mode !== undefined && v.mode !== 'staged' && v.mode !== 'lenses')
    throw new UsageError(`--mode must be staged or lenses, got "${v.mode}"`);
  const choices = {
    cwd: io.cwd,
    scope: { kind: 'paths' as const, paths: [] },
    mode: v.mode === 'lenses' ? ('lenses' as const) : ('staged' as const),
    ...(v.model ? { model: v.model } : {}),
    modelPerStep: pairs(flagOf('modelPerStep'), v['step-model'], STAGED_STEPS),
    reviewerModels: pairs(flagOf('reviewerModels'), v['reviewer-model'], LENS_ROLES),
    provider: v.provider,
    region: v.region,
    project: v.project,
    profile: v.profile,
  };
  const provider = providerFromFlags(choices, io.env);
  const job = buildJob(choices, { apiKey: envKey(provider, io.env), provider });
  const diagnosis = await diagnose(
    job,
    'export ANTHROPIC_API_KEY=sk-ant-… (https://console.anthropic.com/settings/keys)',
  );
  io.stdout.write(`${diagnosisLines(diagnosis).join('\n')}\n`);
  if (!usable(diagnosis)) return EXIT.usage;
  const { connection, models } = diagnosis;
  if (!v.probe) return EXIT.ok;
  const what = `--probe sends ${models.size} call${models.size === 1 ? '' : 's'} of one output token to ${provider.provider} (paid calls)`;
  if (!v.yes && !(await askYes(io, `${what}. Send them?`, `${what}; pass --yes to send them`))) return EXIT.ok;
  const results = await probe(connection, models.keys(), io.signal);
  io.stdout.write(`${probeLines(results).join('\n')}\n`);
  return results.every((r) => r.ok) ? EXIT.ok : EXIT.usage;
}

/** NAME=ID pairs for known names. */
function pairs<T extends string>(
  flag: string,
  raw: string[] | undefined,
  names: readonly T[],
): Partial<Record<T, string>> {
  const out: Partial<Record<T, string>> = {};
  for (const pair of raw ?? []) {
    const at = pair.indexOf('=');
    const [name, id] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    if (!names.includes(name as T) || !id.trim())
      throw new UsageError(`${flag} takes NAME=ID with NAME one of ${names.join(', ')}, got "${pair}"`);
    out[name as T] = id;
  }
  return out;
}
