import assert from 'node:assert/strict';
import { FileRuleId, FUNCTION_RULES, GlobalRuleId } from '../../src/model/records';
import { CROSS_REPO, REVIEWERS } from '../../src/model/reviewers';
import { renderRulePage, ruleInfo, ruleLabel, RULES } from '../../src/model/rules';

describe('the rule catalog', () => {
  it('explains every rule id a finding can carry, once', () => {
    const ids = [...FUNCTION_RULES, ...FileRuleId.options, ...GlobalRuleId.options, ...REVIEWERS, CROSS_REPO];
    for (const id of ids) assert.ok(ruleInfo(id), `${id} has no catalog entry`);
    assert.equal(new Set(RULES.map((r) => r.id.toLowerCase())).size, RULES.length);
    assert.deepEqual(RULES.map((r) => r.id).sort(), [...ids].sort());
  });

  it('marks the rules that can never be a flag as advisory only', () => {
    const advisoryOnly = RULES.filter((r) => r.flag === null).map((r) => r.id);
    assert.deepEqual(advisoryOnly, ['A6', 'A8', 'F2', 'F3']);
  });

  it('labels known ids with their name and leaves unknown ones alone', () => {
    assert.equal(ruleLabel('a5'), 'A5 Error handling');
    assert.equal(ruleLabel('Z9'), 'Z9');
  });

  it('renders a page with what the rule checks, how serious it gets and an example', () => {
    const a4 = renderRulePage(ruleInfo('A4')!);
    assert.match(a4, /^# A4 · Resource management$/m);
    assert.match(a4, /^- \*\*Flag \(must fix\)\*\* when a reachable path leaks the resource\.$/m);
    assert.match(a4, /^```\nconst fd = openSync/m);
    assert.match(a4, /skeptic-ignore A4: reason/);
    assert.match(renderRulePage(ruleInfo('A6')!), /\*\*Never a flag\*\*/);
  });
});
