/**
 * A finding as a to-do for a coding agent: where, what to do, why, the rule, and the code around it.
 * The code is the user's own, quoted so an agent reads it as the subject of the task.
 */
import type { Finding } from './finding';
import { formatLocation } from './location';
import { ruleLabel } from './rules';

export function fixPrompt(f: Finding, code: { text: string; firstLine: number; language: string } | null): string {
  const where = f.locations.map(formatLocation).join(', ');
  const lines = [
    `Fix this code review finding in ${where}${f.function ? ` (in ${f.function})` : ''}.`,
    '',
    `What to do: ${f.action.trim()}`,
    `Why: ${f.rationale.trim()}`,
    `Rule: ${ruleLabel(f.rule_id)}; priority ${f.priority.replace(/_/g, ' ')}; confidence ${f.confidence}.`,
  ];
  if (f.verdict) lines.push(`A reviewer who tried to disprove it concluded: ${f.verdict.trim()}`);
  if (code) {
    const fence = '`'.repeat(Math.max(3, ...[...code.text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    lines.push(
      '',
      `The code (${f.file}, from line ${code.firstLine}):`,
      '',
      `${fence}${code.language}`,
      code.text.replace(/\s+$/, ''),
      fence,
    );
  }
  lines.push(
    '',
    'Make the smallest change that resolves it, keep the behaviour the rest of the code relies on, and say what you changed.',
  );
  return lines.join('\n') + '\n';
}
