import assert from 'node:assert/strict';
import { FILE_SHARED, fileSystem, STEP_BRIEFS } from '../../src/engine/staged/prompts';
import { fileRecords } from '../../src/engine/staged/context';
import { FILE_RULES, fileRuleNames } from '../../src/engine/staged/fileRules';
import { toSourceFile } from '../../src/engine/source';
import { recordTitle } from '../../src/engine/runner';
import { FILE_STEPS, type FileStep, type StepModels } from '../../src/model/models';

/** Each brief's own heading (prompts/step*.md). */
const BRIEFS = {
  curate: '# Step 1: Curate',
  analyze: '# Step 2: Analyze',
  review: '# Step 3: Review functions',
  challenge: '# Step 4: Challenge',
};

/** Steps 1–3 on one model and the challenger on another (the defaults' shape), and everything on one model. */
const SPLIT: StepModels = { curate: 'a', analyze: 'a', review: 'a', challenge: 'b', synthesize: 'a' };
const ONE: StepModels = { ...SPLIT, challenge: 'a' };

/** Sentences (at least 40 characters, to skip list stubs) of a text, whitespace-normalised. */
const sentences = (text: string) =>
  text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length >= 40);

describe("staged system texts: each model gets only its own steps' briefs", () => {
  it("gives Steps 1–3's model their briefs and both rule sets, not the challenger's brief", () => {
    for (const step of ['curate', 'analyze', 'review'] as const) {
      const system = fileSystem(SPLIT, step);
      for (const own of ['curate', 'analyze', 'review'] as const) assert.ok(system.includes(BRIEFS[own]), own);
      assert.ok(!system.includes(BRIEFS.challenge));
      assert.ok(system.includes('# Function-level rules A1 to A8') && system.includes('# File-level rules F1'));
    }
  });

  it("gives the challenger's model the rules it judges by and its brief only", () => {
    const system = fileSystem(SPLIT, 'challenge');
    assert.ok(system.includes(BRIEFS.challenge));
    for (const step of ['curate', 'analyze', 'review'] as const) assert.ok(!system.includes(BRIEFS[step]), step);
    assert.ok(system.includes('# Function-level rules A1 to A8') && system.includes('# File-level rules F1'));
  });

  it('keeps every staged system text within 30,000 characters, all four briefs on one model included', () => {
    for (const models of [SPLIT, ONE])
      for (const step of FILE_STEPS) {
        const length = fileSystem(models, step).length;
        assert.ok(length <= 30_000, `${step}: ${length} characters`);
      }
    assert.equal(fileSystem(ONE, 'curate'), fileSystem(ONE, 'challenge'), 'one model, one system text');
  });

  it('says every rule once: no sentence of the shared text is repeated in a brief or a file rule', () => {
    const shared = new Set(sentences(FILE_SHARED));
    for (const step of FILE_STEPS)
      for (const s of sentences(STEP_BRIEFS[step])) assert.ok(!shared.has(s), `${step} repeats: ${s}`);
    const briefs = new Set(FILE_STEPS.flatMap((step) => sentences(STEP_BRIEFS[step])));
    for (const [name, rule] of Object.entries(FILE_RULES))
      for (const s of sentences(rule)) assert.ok(!shared.has(s) && !briefs.has(s), `file rule ${name} repeats: ${s}`);
  });

  it("names a file's rules by what applies to it, none for a whole file", () => {
    const primary = toSourceFile('a.ts', 'let a = 1;\n');
    assert.deepEqual(fileRuleNames({ primary }), []);
    const removed = [{ before: 1, base: 1, lines: ['x'], omitted: 0 }];
    const deleted = [{ before: 1, base: 1, lines: ['y'], omitted: 0, from: 'gone.ts' }];
    assert.deepEqual(
      fileRuleNames({
        primary: { ...primary, removed: [...removed, ...deleted] },
        changedRanges: [[1, 1]],
        intent: { source: 'the user', text: 'why' },
        callers: { f: ['b.ts:1  f()'] },
        outline: true,
      }),
      ['change', 'removed', 'deleted', 'intent', 'callers', 'outline'],
    );
    assert.deepEqual(fileRuleNames({ primary: { ...primary, removed }, changedRanges: [], callers: {} }), [
      'change',
      'removed',
    ]);
  });

  it('offers a model only the submit tools of the steps it runs: one tool list per model', () => {
    const titles = (step: FileStep, models: StepModels) => fileRecords(models, step).map(recordTitle);
    for (const step of ['curate', 'analyze', 'review'] as const)
      assert.deepEqual(titles(step, SPLIT), ['Step1Record', 'FileAnalysis', 'PerFunctionReview', 'BatchReview']);
    assert.deepEqual(titles('challenge', SPLIT), ['ChallengeResult']);
    for (const step of FILE_STEPS) assert.equal(titles(step, ONE).length, 5, step);
  });
});
