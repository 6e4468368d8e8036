/** Step 1: classify and orient one file. */
import { userContent } from '../layout';
import { Step1Record } from '../records';
import type { UnitOutcome } from '../runner';
import { SYSTEM_PROMPTS } from './prompts';
import { MAX_TOKENS, type FileUnderReview, type StageContext } from './context';

export async function curate(ctx: StageContext, file: FileUnderReview): Promise<UnitOutcome<Step1Record>> {
  const outcome = await ctx.runner.run({
    step: 'curate',
    label: `Step 1 curate ${file.entry.path}`,
    model: ctx.models.curate,
    system: SYSTEM_PROMPTS.curate,
    record: Step1Record,
    content: userContent({ context: ctx.context, primary: file.primary, companion: file.companion, packet: { path: file.entry.path, companion_path: file.entry.companion_path } }),
    tools: true,
    maxTokens: MAX_TOKENS,
  });
  // The path is the record's key: keep the one we asked about, whatever spelling the reply used.
  return outcome.ok ? { ...outcome, value: { ...outcome.value, file_path: file.entry.path } } : outcome;
}
