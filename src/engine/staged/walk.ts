/**
 * A file's staged steps, written once: Step 1 curates the file; the share of it Step 1 keeps in the pipeline
 * goes on to Step 2 (in parts when its inventory does not fit one request), then Step 3 over the functions under
 * review (solo or in batches, then the completeness re-run), whose findings, filtered, go to Step 4 where any
 * survive. `walk` holds that order and what decides each step; a `FileSteps` says what a step is to the one
 * who walks it:
 *
 * - the run asks the model, and the forecast asks the result cache, through the same record steps
 *   (steps.ts, with an `Ask` each: pipeline.ts, forecast.ts), so the requests and keys are the run's own;
 * - the estimate sizes a file the cache knows nothing of in expected calls (estimate.ts), where a step's
 *   share is the rate at which files go that way, not all or nothing.
 *
 * A new step, or a new condition on one, goes here, and the compiler asks each of them what it makes of it.
 */

/** What one who walks a file's steps makes of each; undefined from a step ends the walk there. */
export interface FileSteps<Step1, Analysis, ToChallenge> {
  /** Step 1. */
  curate(): Promise<Step1 | undefined>;
  /** The share of the file Step 1 keeps in the pipeline: all or none for an answer, a rate for a sized file. */
  kept(step1: Step1): Promise<number>;
  /** Step 2, for that share of the file. */
  analyze(step1: Step1, share: number): Promise<Analysis | undefined>;
  /** Step 3 over the functions under review, and its findings filtered for the challenge. */
  review(step1: Step1, analysis: Analysis, share: number): Promise<ToChallenge>;
  /** Of the files that reach it, the share whose findings go to the challenge. */
  challenged(findings: ToChallenge): number;
  /** Step 4 for that share of the file (none: only the filters after it). */
  challenge(step1: Step1, analysis: Analysis, findings: ToChallenge, share: number): Promise<void>;
}

export async function walk<S, A, F>(steps: FileSteps<S, A, F>): Promise<void> {
  const step1 = await steps.curate();
  if (step1 === undefined) return;
  const share = await steps.kept(step1);
  if (share === 0) return;
  const analysis = await steps.analyze(step1, share);
  if (analysis === undefined) return;
  const findings = await steps.review(step1, analysis, share);
  await steps.challenge(step1, analysis, findings, share * steps.challenged(findings));
}
