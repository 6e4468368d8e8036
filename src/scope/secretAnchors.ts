/**
 * What a text must contain before any rule of secretlint's recommended preset can report it: per rule, text
 * that every one of its patterns matches (a literal the pattern starts with or contains, case-folded where
 * the rule's pattern is). A text with none of these cannot hold what the preset finds, so it skips the scan.
 * test/unit/secret-anchors.test.ts runs the preset's own examples through both, and fails when the preset
 * gains a rule this table does not know.
 */
export const PRESET_ANCHORS: Record<string, RegExp[]> = {
  // The access-key-ID and account-ID checks are off in the preset; the secret-key one spells SECRET, secret or Secret.
  '@secretlint/secretlint-rule-aws': [/secret_?access_?key/i],
  // Looks only at files named `.json` or `.p12`, and the scan names none (Step 0's name rules exclude service-account files).
  '@secretlint/secretlint-rule-gcp': [],
  '@secretlint/secretlint-rule-privatekey': [/PRIVATE KEY/],
  '@secretlint/secretlint-rule-npm': [/npm_/, /_authToken=/, /x-oauth-basic/],
  '@secretlint/secretlint-rule-basicauth': [/:\/\/[-\w]{1,256}:[-\w]{1,256}@/],
  '@secretlint/secretlint-rule-slack': [/xox[bpaor]-/, /xapp-/, /hooks\.slack\.com/i],
  '@secretlint/secretlint-rule-sendgrid': [/SG\./],
  '@secretlint/secretlint-rule-shopify': [/shp(?:pa|ca|at|ss)_/],
  '@secretlint/secretlint-rule-github': [/gh[pousr]_/, /github_pat_/],
  '@secretlint/secretlint-rule-openai': [/T3BlbkFJ/],
  '@secretlint/secretlint-rule-anthropic': [/sk-ant-api0/],
  '@secretlint/secretlint-rule-linear': [/lin_api_/],
  '@secretlint/secretlint-rule-1password': [/ops_ey/],
  '@secretlint/secretlint-rule-database-connection-string': [/(?:mongodb(?:\+srv)?|mysqlx?|postgres(?:ql)?):\/\//i],
  // Reports nothing itself: it silences hits under `secretlint-disable` comments.
  '@secretlint/secretlint-rule-filter-comments': [],
};

/** Two passes (case-sensitive anchors, then case-folded ones) cost less than one test per anchor. */
const joined = (caseFolded: boolean) => {
  const sources = Object.values(PRESET_ANCHORS)
    .flat()
    .filter((re) => re.flags.includes('i') === caseFolded)
    .map((re) => re.source);
  return new RegExp(sources.join('|'), caseFolded ? 'i' : '');
};
const CASED = joined(false);
const FOLDED = joined(true);

/** False only for a text no rule of the preset can report. */
export function mayHoldSecret(text: string): boolean {
  return CASED.test(text) || FOLDED.test(text);
}
