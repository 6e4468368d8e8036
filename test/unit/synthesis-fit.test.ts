import assert from 'node:assert/strict';
import { fitCheck } from '../../src/engine/runner';
import type { StageSetup } from '../../src/engine/staged/context';
import { plannedSynthesisCalls, synthesizeWith } from '../../src/engine/staged/synthesize';
import type { SynthesisInput } from '../../src/engine/staged/synthesisRecords';
import type { UnitSpec } from '../../src/engine/unit';
import { UnitCache } from '../../src/engine/unitCache';
import { WindowGuard } from '../../src/engine/window';
import type { Finding } from '../../src/model/finding';
import { resolveStepModels } from '../../src/model/models';
import type { FileAnalysis, SynthesisResult } from '../../src/model/records';

const WINDOW = 40_000;
const setup: StageSetup = {
  cache: new UnitCache('test', undefined, undefined),
  models: resolveStepModels(),
  context: [],
  dismissalExamples: [],
  files: 1,
  // Sized as on the Anthropic API, where a count confirms each request (three bytes a token).
  fits: fitCheck(new WindowGuard({ opus: { context_window: WINDOW } }, {}, true)),
};

/** Records of files, `rows` functions each, one finding on `f1` of the first. */
function records(files: { path: string; rows: number }[]): SynthesisInput {
  const analysis = ({ path, rows }: { path: string; rows: number }): FileAnalysis => ({
    file_path: path,
    brutal_one_line: 'Helpers.',
    invariants: [],
    risk_flags: [],
    file_level_findings: [],
    functions: Array.from({ length: rows }, (_, g) => ({
      qualified_name: `f${g}`,
      kind: 'function',
      visibility: 'public',
      role_in_file: 'public function',
      start_line: 1 + g,
      solo_review: false,
    })),
  });
  const finding: Finding = {
    file: files[0]!.path,
    line: 2,
    locations: [],
    rule_id: 'A1',
    priority: 'must_fix',
    confidence: 'high',
    function: 'f1',
    action: 'Check k.',
    rationale: 'k may be NaN.',
    source: 'function_rule',
  };
  return {
    reviewRoots: ['.'],
    entries: files.map((f) => ({ path: f.path, companion_path: null })),
    step1: [],
    analyses: files.map(analysis),
    findings: [finding],
    lineCounts: new Map(files.map((f) => [f.path, f.rows + 1])),
  };
}

const ANSWER: SynthesisResult = {
  verdict_one_line: 'v',
  executive_summary: 's',
  file_groups: [],
  file_profiles: [],
  cross_cutting_analysis: '',
  cross_file_findings: [],
};

/** Runs Step 5 over `input`, every unit answered; returns the packets asked and the outcome. */
async function synthesizeAll(input: SynthesisInput) {
  const asked: UnitSpec<unknown>[] = [];
  const outcome = await synthesizeWith(setup, input, async (spec) => {
    asked.push(spec as UnitSpec<unknown>);
    return { ok: true, value: ANSWER as never, repairs: 0 };
  });
  const packets = asked.map((spec) => {
    const text = (spec.content as { text: string }[]).map((b) => b.text).join('');
    return JSON.parse(text.slice(text.indexOf('```json\n') + 8, text.lastIndexOf('```'))) as {
      file_entries?: { path: string }[];
      file_analyses?: { file_path: string; functions: { qualified_name: string }[]; functions_not_listed?: object }[];
    };
  });
  const lookups = await plannedSynthesisCalls(setup, input, async () => undefined);
  return { asked, packets, outcome, lookups };
}

describe('Step 5 of a file whose function rows do not fit the window', () => {
  it('sends the flagged rows and only the number of the others when even their names do not fit', async () => {
    const { packets, outcome, lookups } = await synthesizeAll(records([{ path: 'huge.ts', rows: 3_000 }]));
    assert.equal(packets.length, 1);
    assert.equal(lookups, 1);
    const [analysis] = packets[0]!.file_analyses!;
    assert.deepEqual(
      analysis!.functions.map((f) => f.qualified_name),
      ['f1'],
    );
    assert.deepEqual(analysis!.functions_not_listed, {
      count: 2_999,
      why: 'the whole inventory does not fit this request: only the functions with surviving findings are listed in full',
    });
    assert.ok(outcome?.ok);
    assert.deepEqual(outcome.leftOut, [
      "huge.ts: synthesis read the rows of 1 of its 3000 functions (those with findings) and only the number of the other 2999, to fit the model's context window",
    ]);
  });

  it('by parts, shortens only the file too large alone, and every file is in one part', async () => {
    const small = Array.from({ length: 150 }, (_, i) => ({ path: `lib/m${i}.ts`, rows: 1 }));
    const input = records([{ path: 'lib/huge.ts', rows: 400 }, ...small]);
    const { asked, packets, outcome, lookups } = await synthesizeAll(input);
    const parts = packets.filter((p) => p.file_entries);
    assert.ok(parts.length > 1, `${parts.length} parts`);
    assert.equal(asked.length, parts.length + 1);
    assert.equal(lookups, asked.length);
    const shown = parts.flatMap((p) => p.file_entries!.map((e) => e.path));
    assert.deepEqual(shown.sort(), input.entries.map((e) => e.path).sort());
    const analyses = parts.flatMap((p) => p.file_analyses!);
    assert.deepEqual(
      analyses.filter((a) => a.functions_not_listed).map((a) => [a.file_path, a.functions.length]),
      [['lib/huge.ts', 1]],
    );
    assert.ok(outcome?.ok);
    assert.match(outcome.leftOut?.join('\n') ?? '', /lib\/huge\.ts: synthesis read the rows of 1 of its 400 functions/);
  });
});
