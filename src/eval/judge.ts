/**
 * The judge: one structured-output call per (golden comment, finding) pair, through the same sub-agent
 * runner as the review (schema validation, repair turns, retries) and its result cache, so a rerun pays
 * for no judgement it already has. Its model is set apart from the review's; it samples at temperature 0,
 * as the Martian benchmark's own judge does, so the same pair gets the same answer. What it is told is a
 * `JudgePrompt`: the benchmark's own where it publishes one (martian/judgePrompt.ts), else Skeptic's.
 */
import judgePrompt from '../../prompts/eval-judge.md';
import type { Finding } from '../model/finding';
import { promptVersion } from '../engine/promptVersion';
import type { SubAgentRunner } from '../engine/runner';
import type { UnitSpec } from '../engine/unit';
import type { GoldenComment } from './cases';
import { JudgeVerdict, type Judgement } from './verdict';
import { placeAgrees } from './score';

/** What the judge is told: a system text and, per pair, one user turn. */
export interface JudgePrompt {
  /** Whose prompt it is, for the headline. */
  source: string;
  system: string;
  user(golden: string, candidate: string): string;
  /** Part of every judgement's result-cache key, as each review mode's prompt version is of its units'. */
  version: string;
}

const SKEPTIC_SYSTEM = judgePrompt.trim();

/** Skeptic's own judge: the two texts in a fenced JSON packet, quoted as data. */
export const SKEPTIC_JUDGE: JudgePrompt = {
  source: "Skeptic's own (prompts/eval-judge.md)",
  system: SKEPTIC_SYSTEM,
  user: (golden, finding) =>
    `Compare these two issues.\n\n\`\`\`json\n${JSON.stringify({ golden_comment: golden, finding }, null, 2)}\n\`\`\``,
  version: promptVersion({ JUDGE_SYSTEM: SKEPTIC_SYSTEM }),
};

const JUDGE_MAX_TOKENS = 1024;
const JUDGE_TEMPERATURE = 0;

/** A finding as the judge (and the audit JSON) reads it: where, what to do, and why. */
export function findingText(f: Pick<Finding, 'file' | 'line' | 'action' | 'rationale'>): string {
  return `${f.file}:${f.line} - ${f.action} (${f.rationale})`;
}

/**
 * The pairs worth judging, golden comments in the data's order and for each the findings in the review's:
 * every finding at the comment's place (all, for comments without one).
 */
export function judgedPairs(
  golden: GoldenComment[],
  findings: Array<Pick<Finding, 'locations'>>,
): Array<{ g: number; f: number }> {
  return golden.flatMap((gc, g) => findings.flatMap((fc, f) => (placeAgrees(gc, fc) ? [{ g, f }] : [])));
}

/** The one request for a pair: the run and the estimate's cache lookup build it alike. */
export function judgeUnit({
  judge,
  model,
  golden,
  finding,
  label,
}: {
  judge: JudgePrompt;
  model: string;
  golden: string;
  finding: string;
  label: string;
}): UnitSpec<JudgeVerdict> {
  return {
    label,
    step: 'judge',
    model,
    system: judge.system,
    record: JudgeVerdict,
    content: [{ type: 'text', text: judge.user(golden, finding) }],
    tools: false,
    maxTokens: JUDGE_MAX_TOKENS,
    temperature: JUDGE_TEMPERATURE,
  };
}

export async function judgeAll({
  runner,
  judge,
  model,
  golden,
  findings,
  label,
}: {
  runner: SubAgentRunner;
  judge: JudgePrompt;
  model: string;
  golden: GoldenComment[];
  findings: Finding[];
  label: string;
}): Promise<Judgement[]> {
  return Promise.all(
    judgedPairs(golden, findings).map(async ({ g, f }): Promise<Judgement> => {
      const outcome = await runner.run(
        judgeUnit({
          judge,
          model,
          golden: golden[g]!.text,
          finding: findingText(findings[f]!),
          label: `judge ${label} golden ${g + 1} × finding ${f + 1}`,
        }),
      );
      return outcome.ok
        ? { golden: g, finding: f, verdict: outcome.value }
        : { golden: g, finding: f, verdict: null, error: outcome.reason };
    }),
  );
}
