/**
 * The CLI's help text: each option's lines come from its row of the table (app/choiceTable.ts). Loaded only
 * when help is asked for or a command runs; the exit codes and the error type are cli/exit.ts.
 */
import { OPTION_ROWS, OPTIONS, type FlagRow, type Limit, type OptionName } from '../app/choiceTable';

export { EXIT, UsageError } from './exit';

/**
 * The help lines of these options, each label in a column `width` wide and its text beside it; `brief`: only
 * the first line of each (what another command that takes the flag needs to say).
 */
export function flagHelp(
  names: readonly OptionName[],
  { width, brief = false }: { width: number; brief?: boolean },
): string {
  return names
    .flatMap((name) => {
      const { flag, limit } = OPTIONS[name] as { flag: FlagRow; limit?: Limit };
      const label = `  ${flag.label ?? `--${flag.name}${flag.arg ? ` ${flag.arg}` : ''}`}`;
      const [first, ...rest] = flag.help.map((line) => line.replace('{default}', String(limit?.default)));
      const head = label.length > width - 2 ? `${label}  ` : label.padEnd(width);
      return [`${head}${first}`, ...(brief ? [] : rest.map((line) => `${' '.repeat(width)}${line}`))];
    })
    .join('\n');
}

const section = (name: FlagRow['section']) =>
  flagHelp(
    OPTION_ROWS.flatMap(([option, r]) => (r.flag?.section === name ? [option] : [])),
    { width: 25 },
  );

export const USAGE = `skeptic — code review by LLM sub-agents that try to disprove every finding

Usage:
  skeptic review [PATH…] [options]    review files and folders; with no path and no scope flag, the
                                      branch's open PR (gh), else uncommitted changes, else the folder
  skeptic review --changes|--staged|--base REF|--pr N [options]    review a change
  skeptic review --mode lenses --changes|--staged|--base REF REPO…  review each repository's changes, then across them
  skeptic plan [same scope options] [--json]   list what would be reviewed, its functions and the
                                      estimated cost of what the result cache does not already answer
                                      (no key needed); --json: as JSON on stdout
  skeptic ci [--fail-on must_fix|should_fix|never] [--max-calls N] [--sarif FILE]   in a GitHub Actions
                                      step: review the event's pull request and post it there (skeptic ci --help)
  skeptic hook install [--pre-push|--pre-commit] [--chain] [--block-on must_fix] [--max-calls N]
                                      a git hook: a lens review of each push (or commit); skeptic hook
                                      uninstall removes it (skeptic hook --help)
  skeptic doctor [--probe]            the provider, credentials, models and capabilities a review would use;
                                      --probe: one paid minimal call per model, asked first (skeptic doctor --help)
  skeptic batches [--cancel]          the Message Batches review --batch runs left running and no run has
                                      collected; --cancel: cancel those still in progress (skeptic batches --help)
  skeptic mcp                         a Model Context Protocol server on stdio for coding agents: tools review,
                                      plan, findings and dismiss, in the working folder or the client's roots
  skeptic eval martian|aacr [--limit N] [--pr URL…] [--dry-run] [--yes] …   score Skeptic on a public
                                      benchmark with your key (skeptic eval --help)

Scope options:
${section('scope')}

Review options:
${section('review')}

Lens mode (--mode lenses):
  security, logic and performance review the scope in parallel; each re-checks its own findings and keeps
  those it rates 3 or more out of 5. Findings at one file:line are merged.
${section('lens')}
  REPO…                  with a change scope: repositories, each reviewed on its own changes, plus a
                         cross-repository check and one merged report

Provider options (default: as the environment says, the way Claude Code reads it; docs/providers.md):
${section('provider')}

Environment:
  ANTHROPIC_API_KEY      required for review on the Anthropic API (Bedrock and Vertex AI use their own credentials)
  ANTHROPIC_BASE_URL     optional API endpoint (e.g. a proxy, or the fake server for trials)
  CLAUDE_CODE_USE_BEDROCK=1, CLAUDE_CODE_USE_VERTEX=1   choose Bedrock or Vertex AI, as for Claude Code;
                         with AWS_REGION, AWS_PROFILE, AWS_BEARER_TOKEN_BEDROCK, ANTHROPIC_BEDROCK_BASE_URL,
                         CLOUD_ML_REGION, ANTHROPIC_VERTEX_PROJECT_ID, ANTHROPIC_VERTEX_BASE_URL, and
                         CLAUDE_CODE_SKIP_BEDROCK_AUTH / CLAUDE_CODE_SKIP_VERTEX_AUTH (a gateway adds credentials)

Exit codes: 0 the review ran · 2 usage or setup error · 3 some units failed or --max-calls or --max-cost was
reached (the report lists them) · 130 interrupted (Ctrl-C) · 143 terminated (SIGTERM); both write a partial report;
with --format agent: 0 converged, 1 new findings (see --format above)
`;
