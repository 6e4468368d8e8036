/** Builders for valid records, so each test states only what it varies. */
import { FUNCTION_RULES, type Step1Record, type Verdict } from '../../src/model/records';
import type { Finding } from '../../src/model/finding';

export function step1(over: Partial<Step1Record> = {}): Step1Record {
  return {
    file_path: 'src/a.ts',
    primary_kind: 'implementation',
    review_as: 'code_review',
    include_in_pipeline: true,
    language: 'typescript',
    approx_line_count: 40,
    appearance: 'A small module.',
    primary_entrypoints: [],
    external_touchpoints: [],
    concurrency_present: false,
    ...over,
  };
}

/** Eight verdicts, clean unless overridden per rule. */
export function verdicts(over: Partial<Record<string, Partial<Verdict>>> = {}): Verdict[] {
  return FUNCTION_RULES.map((rule_id) => ({
    rule_id,
    line: null,
    rationale: 'Holds.',
    action: null,
    category: null,
    verdict: 'clean',
    confidence: 'high',
    priority: null,
    ...over[rule_id],
  }));
}

export function finding(over: Partial<Finding> = {}): Finding {
  const file = over.file ?? 'src/a.ts';
  const line = over.line ?? 3;
  return {
    file,
    line,
    locations: [{ file, line, ...(over.end_line ? { endLine: over.end_line } : {}) }],
    rule_id: 'A1',
    priority: 'must_fix',
    confidence: 'high',
    function: 'f',
    action: 'Guard the index.',
    rationale: 'An empty list crashes.',
    source: 'function_rule',
    ...over,
  };
}
