/** Step 1: classify and orient one file. */
import { Step1Record } from '../../model/records';
import type { UnitOutcome } from '../runner';
import { fileCall, type FileUnderReview, type StageContext } from './context';

export async function curate(ctx: StageContext, file: FileUnderReview): Promise<UnitOutcome<Step1Record>> {
  const outcome = await fileCall(ctx, file, 'curate', {
    label: `Step 1 curate ${file.entry.path}`,
    record: Step1Record,
    packet: { path: file.entry.path, companion_path: file.entry.companion_path },
  });
  // The path is the record's key: keep the one we asked about, whatever spelling the reply used.
  return outcome.ok ? { ...outcome, value: { ...outcome.value, file_path: file.entry.path } } : outcome;
}
