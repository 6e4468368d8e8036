import type { Category } from '../../src/model/categories';
import { FUNCTION_RULES, type FunctionRuleId, type Verdict } from '../../src/model/records';

/** The category a model would most likely give a finding under each rule. */
const CATEGORY: Record<FunctionRuleId, Category> = {
  A1: 'logic',
  A2: 'contract',
  A3: 'design',
  A4: 'resources',
  A5: 'error_handling',
  A6: 'readability',
  A7: 'concurrency',
  A8: 'testability',
};
import type { PlantedRules } from './scenario';

/**
 * One verdict per rule A1–A8: clean unless planted. A planted flag/advisory gets a stock action and
 * rationale (and advisory a priority) so a scenario only has to say what matters: verdict and line.
 */
export function plantedVerdicts(rules: PlantedRules = {}): Verdict[] {
  return FUNCTION_RULES.map((rule_id) => {
    const planted = rules[rule_id] ?? {};
    const verdict = planted.verdict ?? 'clean';
    const raised = verdict === 'flag' || verdict === 'advisory';
    return {
      rule_id,
      verdict,
      confidence: 'high',
      line: null,
      action: raised ? `Fix the ${rule_id} issue planted by the scenario.` : null,
      rationale: raised ? `Planted ${rule_id} finding.` : `Fake review: nothing found for ${rule_id}.`,
      priority: verdict === 'advisory' ? 'nice_to_have' : null,
      category: raised ? CATEGORY[rule_id] : null,
      ...planted,
    };
  });
}
