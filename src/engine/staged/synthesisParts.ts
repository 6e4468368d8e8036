/**
 * Step 5 for a review too large for one synthesis request: partial syntheses over groups of files — by
 * folder, a folder too large alone split further, neighbouring small ones packed together, each group's
 * request within the window — then one synthesis over the parts' results (merged in rounds when even those
 * do not fit one request). The result has the usual shape: the parts' groups and profiles side by side, the
 * overall verdict, summary and analysis from the merge, and every part's cross-file findings with their
 * locations, plus the merge's findings across parts.
 */
import { userContent } from '../layout';
import type { Finding } from '../../model/finding';
import { SynthesisMerge, SynthesisResult, type CrossFileFinding } from '../../model/records';
import type { UnitOutcome, UnitSpec } from '../unit';
import { MAX_TOKENS, REPLY_ROOM, type StageSetup } from './context';
import { SYNTHESIS_MERGE_SYSTEM, SYNTHESIS_PART_SYSTEM } from './prompts';
import {
  checkSynthesis,
  salvageSynthesis,
  shortenRows,
  synthesisPacket,
  type SynthesisInput,
} from './synthesisRecords';

/** Answers one unit; undefined when it cannot be known without a call (a forecast). */
export type Ask = <T>(spec: UnitSpec<T>) => Promise<UnitOutcome<T> | undefined>;

/** One answer profiles at most this many files: about 80 output tokens a profile, within a part's budget. */
export const MAX_PART_FILES = 100;
/** Output for a part: room for its profiles and groups (up to the largest answer we ask for anywhere). */
export const partMaxTokens = (files: number) => Math.min(64_000, Math.max(MAX_TOKENS, 4_000 + 150 * files));

/** Whether one synthesis answer can profile every file of the review. */
export const fitsOneAnswer = (input: SynthesisInput) => input.entries.length <= MAX_PART_FILES;

interface Part {
  label: string;
  input: SynthesisInput;
  folders: string[];
}

/** What a merge reads of one part (or of an earlier merge): its conclusions, never its file records. */
interface PartSummary {
  part: string;
  files: number;
  verdict_one_line: string;
  executive_summary: string;
  cross_cutting_analysis: string;
  file_groups: { group_name: string; group_description: string; files: number }[];
  cross_file_findings: CrossFileFinding[];
  /** The part's surviving findings, `path:line rule priority: action`: the lines a merge may cite. Absent for a merge's own summary. */
  findings?: string[];
}

/** The parts of a review by parts, over its input with the function rows of a file too large alone shortened. */
export interface PartsPlan {
  input: SynthesisInput;
  parts: Part[];
}

export async function synthesizeByParts(
  setup: StageSetup,
  { input, parts }: PartsPlan,
  ask: Ask,
  planned: (units: number) => void,
): Promise<UnitOutcome<SynthesisResult> | undefined> {
  planned(parts.length + 1);
  const answers = await Promise.all(parts.map((part) => ask(partSpec(setup, part, parts.length))));
  if (answers.some((a) => a === undefined)) return undefined;
  const outcomes = answers as UnitOutcome<SynthesisResult>[];
  const tooLong = outcomes.find((o) => !o.ok && o.tooLong);
  if (tooLong) return tooLong;

  const leftOut: string[] = [];
  const done: { part: Part; value: SynthesisResult }[] = [];
  outcomes.forEach((o, i) => {
    const part = parts[i]!;
    if (o.ok) {
      done.push({ part, value: o.value });
      leftOut.push(...(o.leftOut ?? []));
    } else leftOut.push(`synthesis of ${part.label} failed (${o.reason}); its files have no profile`);
  });
  if (done.length === 0) return { ok: false, reason: `every part of the synthesis failed: ${leftOut.join('; ')}` };

  const merged = await mergeParts(
    done.map(({ part, value }) => summaryOf(part, value)),
    { setup, input, ask, planned },
  );
  if (!merged || !merged.ok) return merged;
  const value: SynthesisResult = {
    verdict_one_line: merged.value.verdict_one_line,
    executive_summary: merged.value.executive_summary,
    file_groups: done.flatMap((d) => d.value.file_groups),
    file_profiles: done.flatMap((d) => d.value.file_profiles),
    cross_cutting_analysis: merged.value.cross_cutting_analysis,
    cross_file_findings: [...done.flatMap((d) => d.value.cross_file_findings), ...merged.value.cross_file_findings],
  };
  const repairs = outcomes.reduce((n, o) => n + (o.ok ? o.repairs : 0), merged.repairs);
  const all = [...leftOut, ...(merged.leftOut ?? [])];
  const cached = outcomes.every((o) => o.cached) && merged.cached;
  return { ok: true, value, repairs, ...(all.length ? { leftOut: all } : {}), ...(cached ? { cached: true } : {}) };
}

/** What every round of merging shares: the run, its input, how a merge is asked, and who hears of each round's size. */
interface Merging {
  setup: StageSetup;
  input: SynthesisInput;
  ask: Ask;
  planned: (units: number) => void;
}

/**
 * Merges part summaries into the overall view. When they do not fit one request, runs of neighbouring
 * parts that do fit are merged first, and their merges merged in turn. Findings across parts from every
 * round are kept.
 */
async function mergeParts(
  summaries: PartSummary[],
  merging: Merging,
): Promise<UnitOutcome<SynthesisMerge> | undefined> {
  const { setup, input, ask, planned } = merging;
  const fits = (run: PartSummary[]) => run.length === 1 || setup.fits(mergeSpec(setup, input, run), REPLY_ROOM);
  if (fits(summaries)) return ask(mergeSpec(setup, input, summaries));
  const runs = packInOrder(summaries, fits);
  if (runs.length === summaries.length)
    return { ok: false, reason: 'the parts of the synthesis do not fit a request even two at a time', tooLong: true };
  planned(runs.length);
  const answers = await Promise.all(runs.map((run) => ask(mergeSpec(setup, input, run))));
  if (answers.some((a) => a === undefined)) return undefined;
  const failed = answers.find((a) => !a!.ok);
  if (failed) return failed;
  const rounds = answers as Extract<UnitOutcome<SynthesisMerge>, { ok: true }>[];
  const next = runs.map((run, i) => mergedSummary(run, rounds[i]!.value));
  const top = await mergeParts(next, merging);
  if (!top || !top.ok) return top;
  const leftOut = [...rounds.flatMap((r) => r.leftOut ?? []), ...(top.leftOut ?? [])];
  return {
    ...top,
    value: {
      ...top.value,
      cross_file_findings: [...rounds.flatMap((r) => r.value.cross_file_findings), ...top.value.cross_file_findings],
    },
    repairs: rounds.reduce((n, r) => n + r.repairs, top.repairs),
    ...(leftOut.length ? { leftOut } : {}),
    ...(rounds.every((r) => r.cached) && top.cached ? { cached: true as const } : {}),
  };
}

/**
 * The review's files in groups whose part request fits: folders kept whole where they can be, and the
 * function rows of a file that does not fit alone shortened (synthesisRecords.ts).
 */
export function planParts(setup: StageSetup, whole: SynthesisInput): PartsPlan {
  const fits = (input: SynthesisInput, paths: string[]) => {
    if (paths.length > MAX_PART_FILES) return false;
    const spec = partSpec(setup, partOf(input, paths), 1);
    return setup.fits(spec, REPLY_ROOM);
  };
  const { groups, state: input } = fitGroups(
    whole.entries.map((e) => e.path),
    whole,
    fits,
    shortenRows,
  );
  const parts = groups.map((paths, i) => {
    const part = partOf(input, paths);
    const folders = part.folders;
    const named =
      folders.length > 3 ? `${folders[0]} … ${folders.at(-1)} (${folders.length} folders)` : folders.join(', ');
    return { ...part, label: `part ${i + 1}/${groups.length} (${named})` };
  });
  return { input, parts };
}

/**
 * Paths in groups that fit (groupPaths); a file that does not fit alone takes the next shorter form of its
 * records (`shorten`: the state with it, undefined when none is left) until it does, and then the groups are
 * made again under the shortened state. `changed`: some file was shortened.
 */
export function fitGroups<S>(
  paths: string[],
  state: S,
  fits: (state: S, paths: string[]) => boolean,
  shorten: (state: S, path: string) => S | undefined,
): { groups: string[][]; state: S; changed: boolean } {
  const groups = groupPaths(paths, (group) => fits(state, group));
  let changed = false;
  for (const [path] of groups.filter((g) => g.length === 1) as [string][]) {
    while (!fits(state, [path])) {
      const next = shorten(state, path);
      if (next === undefined) break;
      [state, changed] = [next, true];
    }
  }
  if (!changed) return { groups, state, changed };
  return { groups: groupPaths(paths, (group) => fits(state, group)), state, changed };
}

/** Paths in groups that fit, folders kept whole where they can be and neighbouring small ones packed together. */
export function groupPaths(paths: string[], fits: (paths: string[]) => boolean): string[][] {
  const groups: string[][] = [];
  // As packInOrder packs, on the paths themselves: each check is as long as its pack, not the whole review.
  for (const group of byFolder(paths, 0, fits, [])) {
    const packed = groups.at(-1)?.concat(group);
    if (packed && fits(packed)) groups[groups.length - 1] = packed;
    else groups.push(group);
  }
  return groups;
}

/**
 * Splits paths into groups that fit, added to `out` in order: a whole folder if it fits, else its subfolders
 * and its own files apart, and a run of files in one folder in halves.
 */
function byFolder(paths: string[], depth: number, fits: (paths: string[]) => boolean, out: string[][]): string[][] {
  if (paths.length <= 1 || fits(paths)) {
    out.push(paths);
    return out;
  }
  const folders = new Map<string, string[]>();
  for (const path of paths) {
    // '' holds the files that sit directly at this depth.
    const key = folderAt(path, depth);
    const inside = folders.get(key);
    if (inside) inside.push(path);
    else folders.set(key, [path]);
  }
  if (folders.size === 1 && !folders.has('')) return byFolder(paths, depth + 1, fits, out);
  if (folders.size === 1) {
    const half = Math.ceil(paths.length / 2);
    byFolder(paths.slice(0, half), depth, fits, out);
    return byFolder(paths.slice(half), depth, fits, out);
  }
  for (const [key, inside] of folders) byFolder(inside, key === '' ? depth : depth + 1, fits, out);
  return out;
}

/** The path's segment at `depth` when a folder, else '' (the file itself, or nothing that deep). */
function folderAt(path: string, depth: number): string {
  let start = 0;
  for (let d = 0; d < depth; d++) {
    const slash = path.indexOf('/', start);
    if (slash < 0) return '';
    start = slash + 1;
  }
  const end = path.indexOf('/', start);
  return end < 0 ? '' : path.slice(start, end);
}

/** Neighbours packed together while the pack still fits; each item on its own always counts as fitting. */
function packInOrder<T>(items: T[], fits: (run: T[]) => boolean): T[][] {
  const runs: T[][] = [];
  for (const item of items) {
    const last = runs.at(-1);
    if (last && fits([...last, item])) last.push(item);
    else runs.push([item]);
  }
  return runs;
}

/** The records of `paths` only. */
function partOf(input: SynthesisInput, paths: string[]): { input: SynthesisInput; folders: string[] } {
  const inPart = new Set(paths);
  const folders = [...new Set(paths.map((p) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '.')))];
  return {
    folders,
    input: {
      reviewRoots: input.reviewRoots,
      entries: input.entries.filter((e) => inPart.has(e.path)),
      step1: input.step1.filter((s) => inPart.has(s.file_path)),
      analyses: input.analyses.filter((a) => inPart.has(a.file_path)),
      findings: input.findings.filter((f) => inPart.has(f.file)),
      lineCounts: new Map([...input.lineCounts].filter(([path]) => inPart.has(path))),
      ...(input.rowForms ? { rowForms: input.rowForms } : {}),
    },
  };
}

function partSpec(
  setup: StageSetup,
  part: Pick<Part, 'input' | 'folders'> & { label?: string },
  of: number,
): UnitSpec<SynthesisResult> {
  const files = part.input.entries.length;
  return {
    step: 'synthesize',
    label: `Step 5 synthesize ${part.label ?? `part of ${of}`}`,
    model: setup.models.synthesize,
    system: SYNTHESIS_PART_SYSTEM,
    record: SynthesisResult,
    // The folders, not the part's number: a regrouping elsewhere does not change this part's key.
    content: userContent({
      context: setup.context,
      packet: { part_folders: part.folders, ...synthesisPacket(part.input) },
    }),
    tools: false,
    maxTokens: partMaxTokens(files),
    check: (r) => checkSynthesis(r, part.input.lineCounts),
    salvage: (r) => salvageSynthesis(r, part.input.lineCounts),
  };
}

function mergeSpec(setup: StageSetup, input: SynthesisInput, parts: PartSummary[]): UnitSpec<SynthesisMerge> {
  return {
    step: 'synthesize',
    label: `Step 5 synthesize across ${parts.length} parts`,
    model: setup.models.synthesize,
    system: SYNTHESIS_MERGE_SYSTEM,
    record: SynthesisMerge,
    content: userContent({ context: setup.context, packet: { review_roots: input.reviewRoots, parts } }),
    tools: false,
    maxTokens: MAX_TOKENS,
    check: (r) => checkSynthesis(r, input.lineCounts),
    salvage: (r) => salvageSynthesis(r, input.lineCounts),
  };
}

const shortFinding = (f: Finding) => `${f.file}:${f.line} ${f.rule_id} ${f.priority}: ${f.action}`;

function summaryOf(part: Part, value: SynthesisResult): PartSummary {
  return {
    part: part.folders.join(', '),
    files: part.input.entries.length,
    verdict_one_line: value.verdict_one_line,
    executive_summary: value.executive_summary,
    cross_cutting_analysis: value.cross_cutting_analysis,
    file_groups: value.file_groups.map((g) => ({
      group_name: g.group_name,
      group_description: g.group_description,
      files: g.file_paths.length,
    })),
    cross_file_findings: value.cross_file_findings,
    findings: part.input.findings.map(shortFinding),
  };
}

/** A run of parts merged, as the next round reads it: their groups and findings, the merge's words. */
function mergedSummary(run: PartSummary[], value: SynthesisMerge): PartSummary {
  return {
    part: run.map((p) => p.part).join('; '),
    files: run.reduce((n, p) => n + p.files, 0),
    verdict_one_line: value.verdict_one_line,
    executive_summary: value.executive_summary,
    cross_cutting_analysis: value.cross_cutting_analysis,
    file_groups: run.flatMap((p) => p.file_groups),
    cross_file_findings: [...run.flatMap((p) => p.cross_file_findings), ...value.cross_file_findings],
  };
}
