/**
 * The judge: one structured-output call per (golden comment, finding) pair, through the same sub-agent
 * runner as the review (schema validation, repair turns, retries) and its result cache, so a rerun pays
 * for no judgement it already has. Its model is set apart from the review's.
 */
import judgePrompt from '../../prompts/eval-judge.md';
import type { Finding } from '../model/finding';
import { SubAgentRunner } from '../engine/runner';
import type { GoldenComment } from './cases';
import { JudgeVerdict, type Judgement } from './records';
import { placeAgrees } from './score';

export const JUDGE_SYSTEM = judgePrompt.trim();
const JUDGE_MAX_TOKENS = 1024;

/** A finding as the judge (and the audit JSON) reads it: where, what to do, and why. */
export function findingText(f: Finding): string {
  return `${f.file}:${f.line} - ${f.action} (${f.rationale})`;
}

/** Every golden comment against every finding at its place (every finding, for comments without a place). */
export async function judgeAll(
  runner: SubAgentRunner,
  model: string,
  golden: GoldenComment[],
  findings: Finding[],
  label: string,
): Promise<Judgement[]> {
  const pairs = golden.flatMap((gc, g) => findings.flatMap((fc, f) => (placeAgrees(gc, fc) ? [{ g, f }] : [])));
  return Promise.all(
    pairs.map(async ({ g, f }): Promise<Judgement> => {
      const packet = { golden_comment: golden[g]!.text, finding: findingText(findings[f]!) };
      const outcome = await runner.run({
        label: `judge ${label} golden ${g + 1} × finding ${f + 1}`,
        step: 'judge',
        model,
        system: JUDGE_SYSTEM,
        record: JudgeVerdict,
        content: [
          { type: 'text', text: `Compare these two issues.\n\n\`\`\`json\n${JSON.stringify(packet, null, 2)}\n\`\`\`` },
        ],
        tools: false,
        maxTokens: JUDGE_MAX_TOKENS,
      });
      return outcome.ok
        ? { golden: g, finding: f, verdict: outcome.value }
        : { golden: g, finding: f, verdict: null, error: outcome.reason };
    }),
  );
}
