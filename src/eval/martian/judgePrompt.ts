/**
 * The benchmark's own judge prompt, read at run time from the downloaded benchmark (its judging step's
 * source), never copied into Skeptic: the user-turn template with its two slots, golden comment and
 * candidate, and the system line sent with it. The template is a Python format string, so `{{`/`}}` are
 * literal braces and `{name}` a slot; a file whose template or system line cannot be found is refused
 * rather than judged with something else under the benchmark's name.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promptVersion } from '../../engine/promptVersion';
import { DataError } from '../data';
import type { JudgePrompt } from '../judge';

/** The judging step, relative to the benchmark's offline/ folder. */
export const JUDGE_FILE = 'code_review_benchmark/step3_judge_comments.py';
const SLOTS = { golden: 'golden_comment', candidate: 'candidate' } as const;

/** The judge prompt of the benchmark checkout `offlineDir`, or null when the file is not there. */
export async function benchmarkJudge(offlineDir: string): Promise<JudgePrompt | null> {
  const source = await readFile(join(offlineDir, JUDGE_FILE), 'utf8').catch(() => null);
  if (source === null) return null;
  const template = /^JUDGE_PROMPT\s*=\s*"""([\s\S]*?)"""/m.exec(source)?.[1];
  const system = /"role"\s*:\s*"system"\s*,\s*"content"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(source)?.[1];
  if (template === undefined || system === undefined)
    throw new DataError(`${JUDGE_FILE}: the judge prompt (JUDGE_PROMPT) or its system line was not found`);
  const named = [...template.matchAll(FORMAT)].flatMap((m) => m[1] ?? []);
  for (const slot of Object.values(SLOTS))
    if (!named.includes(slot)) throw new DataError(`${JUDGE_FILE}: the judge prompt has no {${slot}} slot`);
  const unknown = named.find((n) => !(Object.values(SLOTS) as string[]).includes(n));
  if (unknown) throw new DataError(`${JUDGE_FILE}: the judge prompt has an unknown slot {${unknown}}`);
  const systemText = JSON.parse(system) as string;
  return {
    source: `the benchmark's own (${JUDGE_FILE})`,
    system: systemText,
    user: (golden, candidate) => fill(template, { [SLOTS.golden]: golden, [SLOTS.candidate]: candidate }),
    version: promptVersion({ system: systemText, template }),
  };
}

/** Python's str.format with named slots: `{{` and `}}` are braces, `{name}` a slot. */
const FORMAT = /\{\{|\}\}|\{(\w+)\}/g;

function fill(template: string, values: Record<string, string>): string {
  return template.replace(FORMAT, (all, name: string | undefined) => (name === undefined ? all[0]! : values[name]!));
}
