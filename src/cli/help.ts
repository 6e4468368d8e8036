/** The CLI's help text and its one error type: a usage or setup problem (exit 2, one line). */
export class UsageError extends Error {}

export const EXIT = { ok: 0, findings: 1, usage: 2, incomplete: 3, interrupted: 130, terminated: 143 } as const;

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
  --changes              uncommitted changes (git diff HEAD) plus untracked files
  --no-untracked         with --changes: leave untracked files out
  --staged               staged changes only
  --base REF             the branch's changes since its merge-base with REF
  --pr N                 a GitHub pull request, through the gh CLI
  --force                review a change even under 5 changed lines, or a draft/merged/closed PR
  --exclude GLOB         leave matching files out (repeatable)

Review options:
  --mode MODE            staged (default: the five-step pipeline) | lenses (parallel reviewers, faster)
  --out FILE.md          report path (default: code-review-{scope}.md; never overwritten: -v2, -v3…)
  --json FILE.json       also write the machine-readable result (never a file under review)
  --sarif FILE.sarif     also write the findings as SARIF 2.1.0 (code-scanning tools)
  --events FILE          also write every engine event as a JSON line with a timestamp (calls, tokens,
                         cache reads and writes, cost so far), for dashboards
  --model ID             model for every step (default: per-step defaults)
  --step-model STEP=ID   staged mode: model for one step: curate, analyze, review, challenge, synthesize (repeatable)
  --concurrency N        concurrent model requests (default 8)
  --timeout SECONDS      per request attempt (default 300); with --batch: the whole run (90m, 24h; default 24h,
                         the time a batch has before it expires: an expired request gets another round only
                         under a longer one, e.g. 48h)
  --max-attempts N       attempts per request, the first included; rate limits, overload and dropped
                         connections are retried with backoff (default 6); with --batch, a result that
                         expired or was canceled is not counted (--timeout bounds those)
  --effort LEVEL         low | medium | high | xhigh | max (default: the model's; xhigh in lens mode)
  --cache-dir DIR        where finished units are kept and reused when the code, prompt and model are
                         unchanged (a rerun costs no calls; an interrupted run resumes). Default: this
                         repository's folder under ~/.cache/skeptic (XDG_CACHE_HOME), shared with the extension
  --no-cache             ask the model for every unit and keep nothing
  --refresh              ask again the units the cache keeps as salvaged (part of an answer kept after its
                         repair turns) or failed after the model answered; unchanged input is otherwise not
                         asked twice, whatever the answer was; and asks a base-URL endpoint again for what
                         it refused before (docs/providers.md)
  --context-file FILE    extra project context for every call (repeatable)
  --intent FILE|TEXT     what the change is for (a file, else the text), quoted to the reviewers as data and cut
                         to 4000 characters; default: a pull request's title and description, or for --base the
                         range's commit subjects
  --prices FILE          JSON price overrides in dollars per million tokens, by model ID or family:
                         {"opus": {"input": 5, "output": 25}} (cost figures use a dated list otherwise);
                         "context_window": TOKENS sets a model's window (default 200000, 1M for the
                         models that have it), which every request is checked against before it is sent
  --yes                  do not ask before a large run
  --confirm-over N       ask first when the estimate exceeds N model calls (default 300)
  --max-calls N          stop the run after N model requests, failed ones included, and write a partial
                         report (exit 3); default 0: no ceiling (each unit is capped anyway)
  --max-cost USD         a dollar ceiling: a run whose cheapest estimate is over it is refused before any call
                         (exit 2); otherwise it stops before the call that would pass it and writes a partial
                         report saying what was not reviewed (exit 3)
  --min-priority LEVEL   must_fix | should_fix | nice_to_have: leave the findings below it out of the summary,
                         the report's list, --json findings and SARIF (the notes and --json's
                         below_min_priority count them); default: all. skeptic ci: the lowest posted inline
  --format agent         review: print only one line per finding (new first, its fix prompt as a JSON
                         string) and a verdict line; exit 0 converged (complete, nothing new since the last
                         review of the same scope), 1 new findings, 2 usage or setup error, 3 incomplete
  --batch                through the Message Batches API at half price: each round sends every request that
                         is ready and waits for its batch (most end within the hour, all within 24h); Ctrl-C
                         leaves them running and the same command run again collects them instead of paying
                         (not with --refresh or --no-cache, which ask again); skeptic batches --cancel stops them
  -v, --verbose          plan: list every file and exclusion, not only the counts
  -h, --help             this text
  -V, --version          the version of skeptic

Lens mode (--mode lenses):
  security, logic and performance review the scope in parallel; each re-checks its own findings and keeps
  those it rates 3 or more out of 5. Findings at one file:line are merged.
  --full-fanout          also route types, silent-failures, spec-compliance, comments and tests reviewers
                         where the scope calls for them, then validate each CRITICAL/HIGH finding (up to 10)
  --max-reviewers N      cap on reviewers (default 3; 8 with --full-fanout)
  --reviewer-model NAME=ID  model for one role: security, logic, performance, types, silent-failures,
                         spec-compliance, comments, tests, validator, cross-repo (repeatable; --model sets all)
  --spec FILE            spec or acceptance criteria for the spec-compliance reviewer (a PR's description
                         serves when none is given)
  --rubric FILE          mark the criteria tagged "Evaluator: skeptic" PASS or FAIL in the report
  REPO…                  with a change scope: repositories, each reviewed on its own changes, plus a
                         cross-repository check and one merged report

Provider options (default: as the environment says, the way Claude Code reads it; docs/providers.md):
  --provider NAME        anthropic (the Anthropic API) | bedrock (Amazon Bedrock) | vertex (Google Vertex AI)
                         | compatible (an Anthropic-compatible server at ANTHROPIC_BASE_URL, e.g. Ollama)
                         | vscode-lm (the editor's language models: the VS Code extension only)
  --region REGION        Bedrock's AWS region (else AWS_REGION) or Vertex AI's (else CLOUD_ML_REGION)
  --project ID           Vertex AI's project (else ANTHROPIC_VERTEX_PROJECT_ID, else the credentials')
  --profile NAME         Bedrock: the AWS profile that signs the calls (else AWS_PROFILE, else the default chain)

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
