/** What every staged step needs: the runner, the models, the project context, and the file at hand. */
import type { z } from 'zod';
import { userContent } from '../layout';
import type { StagedStep, StepModels } from '../../model/models';
import type { LineRange } from '../../model/lines';
import type { ContextFile, FileEntry } from '../../model/records';
import type { SubAgentRunner, UnitOutcome } from '../runner';
import type { SourceFile } from '../source';
import { SYSTEM_PROMPTS } from './prompts';

export interface StageContext {
  runner: SubAgentRunner;
  models: StepModels;
  context: ContextFile[];
  /** For the challenger: findings this team dismissed before, and why. */
  dismissalExamples: DismissalExample[];
}

/** A finding a team dismissed, as the challenger sees it. */
export interface DismissalExample {
  rule_id: string;
  code: string;
  finding: string;
  reason: string;
  note: string;
}


export interface FileUnderReview {
  entry: FileEntry;
  primary: SourceFile;
  companion: SourceFile | null;
  /** Set for a diff review: the lines the change touched. */
  changedRanges?: LineRange[];
}

/** Records of a normal size fit well inside this; a batch of 8 functions × 8 verdicts is the largest. */
export const MAX_TOKENS = 16_000;

/** A sub-agent call about one file: the stage's prompt and model, the file and its companion, then the packet. */
export function fileCall<T>(
  ctx: StageContext,
  file: FileUnderReview,
  step: Exclude<StagedStep, 'synthesize'>,
  call: { label: string; record: z.ZodType<T>; packet: object; check?: (value: T) => string[] },
): Promise<UnitOutcome<T>> {
  return ctx.runner.run({
    step,
    label: call.label,
    model: ctx.models[step],
    system: SYSTEM_PROMPTS[step],
    record: call.record,
    content: userContent({ context: ctx.context, primary: file.primary, companion: file.companion, packet: call.packet }),
    tools: true,
    maxTokens: MAX_TOKENS,
    ...(call.check ? { check: call.check } : {}),
  });
}
