/** The CLI's help text and its one error type: a usage or setup problem (exit 2, one line). */
export class UsageError extends Error {}

export const EXIT = { ok: 0, usage: 2, incomplete: 3, interrupted: 130 } as const;

export const USAGE = `skeptic — code review by LLM sub-agents that try to disprove every finding

Usage:
  skeptic review [PATH…] [options]    review files and folders (default: .)

Review options:
  --out FILE.md          report path (default: code-review-{scope}.md; never overwritten: -v2, -v3…)
  --json FILE            also write the machine-readable result
  --model ID             model for every step (default: per-step defaults)
  --step-model STEP=ID   model for one step: curate, analyze, review, challenge, synthesize (repeatable)
  --concurrency N        concurrent model requests (default 8)
  --timeout SECONDS      per request attempt (default 300)
  --effort LEVEL         low | medium | high | xhigh | max (default: the model's)
  --exclude GLOB         leave matching files out (repeatable)
  --context-file FILE    extra project context for every call (repeatable)
  --yes                  do not ask before a large run
  -h, --help             this text

Environment:
  ANTHROPIC_API_KEY      required for review
  ANTHROPIC_BASE_URL     optional API endpoint (e.g. a proxy, or the fake server for trials)

Exit codes: 0 the review ran · 2 usage or setup error · 3 some units failed (the report lists them) · 130 interrupted
`;
