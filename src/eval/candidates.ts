/**
 * The findings a PR's review made, kept beside its report (`candidates.json`) under a key of
 * what the review was given (the commits, mode, models and prompts): a rerun with the same key is answered
 * by the result cache with the same findings, so its estimate knows exactly which judge calls it will ask,
 * and which of those the cache already answers. Read back through a schema; a missing or bad file, or
 * another key, just means "unknown".
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Finding } from '../model/finding';

const Candidate = z.object({
  file: z.string(),
  line: z.number().int(),
  action: z.string(),
  rationale: z.string(),
  pre_existing: z.boolean().optional(),
  locations: z.array(z.object({ file: z.string(), line: z.number().int(), endLine: z.number().int().optional() })),
});
export type Candidate = z.infer<typeof Candidate>;

const Kept = z.object({ key: z.string(), candidates: z.array(Candidate) });
const FILE = 'candidates.json';

/** What is scored: what the bot would post — the main findings and, unless left out, the pre-existing ones. */
export function candidatesOf<T extends { pre_existing?: boolean }>(findings: T[], includePreExisting: boolean): T[] {
  return includePreExisting ? findings : findings.filter((f) => !f.pre_existing);
}

export async function keepCandidates(reportDir: string, key: string, findings: Finding[]): Promise<void> {
  const out: Candidate[] = findings.map((f) => ({
    file: f.file,
    line: f.line,
    action: f.action,
    rationale: f.rationale,
    ...(f.pre_existing ? { pre_existing: true } : {}),
    locations: f.locations.map((l) => ({ file: l.file, line: l.line, ...(l.endLine ? { endLine: l.endLine } : {}) })),
  }));
  await writeFile(join(reportDir, FILE), JSON.stringify({ key, candidates: out }) + '\n');
}

export async function readCandidates(reportDir: string, key: string): Promise<Candidate[] | null> {
  const text = await readFile(join(reportDir, FILE), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const parsed = Kept.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.key === key ? parsed.data.candidates : null;
  } catch {
    return null;
  }
}
