import assert from 'node:assert/strict';
import { CHALLENGE_SYSTEM, FILE_SYSTEM, fileSystem } from '../../src/engine/staged/prompts';

/** Each brief's own heading (prompts/step*.md). */
const BRIEFS = {
  curate: '# Step 1: Curate',
  analyze: '# Step 2: Analyze',
  review: '# Step 3: Review functions',
  challenge: '# Step 4: Challenge',
};

describe("staged system texts: each model gets only its own steps' briefs", () => {
  it("Steps 1-3's text has their briefs and both rule sets, not the challenger's brief", () => {
    for (const step of ['curate', 'analyze', 'review'] as const) {
      assert.equal(fileSystem(step), FILE_SYSTEM);
      assert.ok(FILE_SYSTEM.includes(BRIEFS[step]), step);
    }
    assert.ok(!FILE_SYSTEM.includes(BRIEFS.challenge));
    assert.ok(FILE_SYSTEM.includes('# Function-level rules A1 to A8') && FILE_SYSTEM.includes('# File-level rules F1'));
  });

  it("Step 4's text has the rules it judges by and its brief, not the curate, analyze or review briefs", () => {
    assert.equal(fileSystem('challenge'), CHALLENGE_SYSTEM);
    assert.ok(CHALLENGE_SYSTEM.includes(BRIEFS.challenge));
    for (const step of ['curate', 'analyze', 'review'] as const)
      assert.ok(!CHALLENGE_SYSTEM.includes(BRIEFS[step]), step);
    assert.ok(
      CHALLENGE_SYSTEM.includes('# Function-level rules A1 to A8') &&
        CHALLENGE_SYSTEM.includes('# File-level rules F1'),
    );
  });
});
