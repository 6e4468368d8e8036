/** Step 1: classify and orient one file. */
import { Step1Record } from '../../model/records';
import { intentPacket } from '../../model/intent';
import type { FileCall, FileUnderReview } from './context';

/** The request of Step 1 (the run's and the forecast's). */
export function curateCall(file: FileUnderReview): FileCall<Step1Record> {
  return {
    label: `Step 1 curate ${file.entry.path}`,
    record: Step1Record,
    packet: { path: file.entry.path, companion_path: file.entry.companion_path, ...intentPacket(file.intent) },
  };
}

/** The path is the record's key: keep the one we asked about, whatever spelling the reply used. */
export const settleStep1 = (file: FileUnderReview, answer: Step1Record): Step1Record => ({
  ...answer,
  file_path: file.entry.path,
});
