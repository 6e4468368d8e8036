/**
 * `skeptic hook install [--pre-push|--pre-commit] [--chain] [--block-on must_fix] [--max-calls N]`,
 * `skeptic hook uninstall`, and `skeptic hook run`, which the hook calls: a lens review of the commits
 * being pushed (or of the staged change) under a small call ceiling, its findings printed. It blocks only
 * with --block-on must_fix and an open must-fix finding; a missing key or a failed review lets git go on.
 */
import { resolve } from 'node:path';
import { headCommit, HOOKS, installHook, parsePushInput, pushBase, uninstallHook, type HookKind } from '../app/hook';
import { runJob } from '../app/runJob';
import { isSetupError } from '../model/setup';
import { PRIORITY_ORDER } from '../model/order';
import { plural } from '../model/plural';
import type { ScopeSpec } from '../model/scope';
import { parseCommandLine, parseReviewArgs, wholeNumber } from './args';
import { consoleReporter } from './console';
import { EXIT, UsageError } from './help';
import type { CliIo } from './io';
import { jobFromFlags } from './job';
import { redact } from '../model/redact';

/** Model calls one hook run may make unless told otherwise: a push should not wait long, nor cost much. */
export const HOOK_MAX_CALLS = 30;

export const HOOK_USAGE = `skeptic hook — review before git pushes or commits

Usage:
  skeptic hook install [--pre-push|--pre-commit] [--chain] [--block-on must_fix] [--max-calls N]
  skeptic hook uninstall [--pre-push|--pre-commit]

install writes the git hook (default pre-push: the commits being pushed; pre-commit: the staged change),
reviewed in lens mode under --max-calls (default ${HOOK_MAX_CALLS}), findings printed. It never overwrites a hook
that is not Skeptic's: --chain keeps it and runs it first. --block-on must_fix stops the push or commit
when a must-fix finding is open (git push --no-verify skips the hook). uninstall removes only Skeptic's hook.
Needs ANTHROPIC_API_KEY in the environment git runs in; without it the hook says so and lets git go on.
`;

export async function hookCommand(argv: string[], io: CliIo): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === 'run') return runHook(rest, io);
  const { values } = parseCommandLine(rest, {
    'pre-push': { type: 'boolean' },
    'pre-commit': { type: 'boolean' },
    chain: { type: 'boolean' },
    'block-on': { type: 'string' },
    'max-calls': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help || verb === undefined || verb === '--help' || verb === '-h') {
    io.stdout.write(HOOK_USAGE);
    return verb === undefined ? EXIT.usage : EXIT.ok;
  }
  if (values['pre-push'] && values['pre-commit']) throw new UsageError('choose one: --pre-push or --pre-commit');
  const kinds: HookKind[] = values['pre-commit']
    ? ['pre-commit']
    : values['pre-push'] || verb === 'install'
      ? ['pre-push']
      : [...HOOKS];
  if (verb === 'uninstall') {
    const done = await uninstallHook(io.cwd, kinds);
    io.stdout.write(done.length ? `${done.join('\n')}\n` : 'no Skeptic hook here\n');
    return EXIT.ok;
  }
  if (verb !== 'install')
    throw new UsageError(`unknown hook command "${verb}"; use install or uninstall (see skeptic hook --help)`);
  const blockOn = values['block-on'];
  if (blockOn !== undefined && blockOn !== 'must_fix')
    throw new UsageError(`--block-on takes must_fix, got "${blockOn}"`);
  const maxCalls = wholeNumber('--max-calls', values['max-calls'], { default: HOOK_MAX_CALLS, min: 1, max: 1_000_000 });
  const path = await installHook(io.cwd, {
    kind: kinds[0]!,
    chain: values.chain ?? false,
    runArgs: ['--max-calls', String(maxCalls), ...(blockOn ? ['--block-on', blockOn] : [])],
    command: [process.execPath, resolve(process.argv[1] ?? 'skeptic')],
  });
  io.stdout.write(
    `installed ${path}: ${kinds[0] === 'pre-push' ? 'each push' : 'each commit'} gets a lens review (at most ${plural(maxCalls, 'model call')})${blockOn ? ', blocked by a must-fix finding' : ''}\n`,
  );
  return EXIT.ok;
}

/** What the hook runs. Its exit code is git's answer: 1 blocks, anything Skeptic fails at lets git go on. */
async function runHook(argv: string[], io: CliIo): Promise<number> {
  try {
    return await reviewForHook(argv, io);
  } catch (err) {
    // Skeptic's own trouble never stops git, whatever it is: say it, and let the push or commit go on.
    const what = err instanceof UsageError || isSetupError(err) ? err.message : `internal error: ${String(err)}`;
    io.stderr.write(`skeptic: not reviewed: ${redact(what)}; git goes ahead\n`);
    return EXIT.ok;
  }
}

async function reviewForHook(argv: string[], io: CliIo): Promise<number> {
  const [kind, ...rest] = argv;
  if (kind !== 'pre-push' && kind !== 'pre-commit')
    throw new UsageError('skeptic hook run is for the hook itself: pre-push or pre-commit');
  const { values } = parseCommandLine(rest, { 'max-calls': { type: 'string' }, 'block-on': { type: 'string' } });
  const say = (line: string) => io.stderr.write(`skeptic: ${line}\n`);
  const apiKey = io.env.ANTHROPIC_API_KEY?.trim();
  if (!apiKey) {
    say(
      `no ANTHROPIC_API_KEY in the environment: the ${kind === 'pre-push' ? 'push' : 'commit'} goes ahead unreviewed`,
    );
    return EXIT.ok;
  }
  const scope = kind === 'pre-commit' ? ({ kind: 'staged' } as const) : await pushScope(io, say);
  if (!scope) return EXIT.ok;
  const flags = parseReviewArgs([
    '--mode',
    'lenses',
    '--max-calls',
    values['max-calls'] ?? String(HOOK_MAX_CALLS),
    '--yes',
    '--out',
    '.skeptic/reports/code-review-hook.md',
  ]);
  const job = await jobFromFlags({ ...flags, choices: { ...flags.choices, scope } }, io, apiKey);
  const outcome = await runJob(job, { emit: consoleReporter(io.stderr, 'lenses'), signal: io.signal });
  if (outcome.kind === 'skipped') {
    say(`not reviewed: ${outcome.reason}`);
    return EXIT.ok;
  }
  if (outcome.kind !== 'ran') return EXIT.ok;
  const { result, outputs } = outcome;
  // A review whose every reviewer failed (API down, 401, 500) found nothing because it looked at nothing.
  if (!outputs || (result.failed.length && !result.files.some((f) => f.status === 'reviewed'))) {
    const why = result.stop?.message ?? result.failed[0]?.reason ?? 'no reviewer finished';
    say(`not reviewed: ${why}; the ${kind === 'pre-push' ? 'push' : 'commit'} goes ahead unreviewed`);
    return EXIT.ok;
  }
  const findings = [...result.findings].sort(
    (a, b) => PRIORITY_ORDER.indexOf(a.priority) - PRIORITY_ORDER.indexOf(b.priority),
  );
  for (const f of findings)
    io.stderr.write(`  ${f.priority.replace('_', ' ')}  ${f.file}:${f.line}  ${f.action} (${f.rationale})\n`);
  const partly = result.failed.length
    ? ` in what was reviewed (not reviewed: ${plural(result.failed.length, 'unit')} failed, ${result.failed[0]!.reason})`
    : '';
  say(`${plural(findings.length, 'finding')}${partly}; report: ${outputs.reportPath}`);
  const blocking = findings.filter((f) => f.priority === 'must_fix' && !f.pre_existing);
  if (values['block-on'] === 'must_fix' && blocking.length) {
    say(
      `${kind === 'pre-push' ? 'push' : 'commit'} blocked: ${plural(blocking.length, 'must-fix finding')} (git ${kind === 'pre-push' ? 'push' : 'commit'} --no-verify skips this hook)`,
    );
    return EXIT.findings;
  }
  return EXIT.ok;
}

/** The commits being pushed, from git's stdin: the change since what the remote has of the checked-out branch. */
async function pushScope(io: CliIo, say: (line: string) => void): Promise<ScopeSpec | null> {
  let input = '';
  for await (const chunk of io.stdin) input += String(chunk);
  const head = await headCommit(io.cwd);
  let base: string | null = null;
  for (const ref of parsePushInput(input)) {
    if (ref.localSha !== head) {
      if (!/^0+$/.test(ref.localSha)) say(`${ref.localRef} is not the checked-out commit: not reviewed`);
      continue;
    }
    base = await pushBase(io.cwd, ref);
  }
  if (!base) {
    say('nothing new of the checked-out branch to review in this push');
    return null;
  }
  return { kind: 'branch', base };
}
