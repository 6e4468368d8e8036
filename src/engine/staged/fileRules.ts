/**
 * Rules that apply to some files only (prompts/file-rules.md): a diff review's, removed lines', a deleted
 * file's, stated intent's, changed callers', an outline's. Where they apply they go in the file's cached
 * block, which every call about the file on a model reads after the first writes it; where they do not, no
 * call carries them. A rule for one step alone goes after that step's directive instead (stepRule), since
 * the file's other calls would only read it back unused. Which rules a file got is part of every
 * result-cache key of its calls; their wording is part of the prompt version.
 */
import fileRulesText from '../../../prompts/file-rules.md';
import { intentPacket, type Intent } from '../../model/intent';
import type { LineRange } from '../../model/lines';
import type { SourceFile } from '../source';

/** The sections of prompts/file-rules.md by name (each `## name` line names the section after it). */
export const FILE_RULES: Readonly<Record<string, string>> = Object.fromEntries(
  fileRulesText
    .split(/^## /m)
    .filter((s) => s.trim())
    .map((section) => {
      const [name, ...body] = section.split('\n');
      return [name!.trim(), body.join('\n').trim()];
    }),
);

/** What of a file under review (context.ts) decides its rules. */
interface RulesOf {
  primary: SourceFile;
  changedRanges?: LineRange[];
  intent?: Intent;
  callers?: Record<string, string[]>;
  outline?: boolean;
}

/** The names of the rules that apply to every call about this file, in the order they are said. */
export function fileRuleNames(file: RulesOf): string[] {
  const removed = file.primary.removed ?? [];
  const applies: Record<string, boolean> = {
    change: Boolean(file.changedRanges),
    removed: removed.length > 0,
    deleted: removed.some((run) => run.from !== undefined),
    intent: intentPacket(file.intent).intent !== undefined,
    callers: Object.keys(file.callers ?? {}).length > 0,
    outline: Boolean(file.outline),
  };
  return Object.keys(applies).filter((name) => applies[name]);
}

/** The rules a call's result-cache key names: only when some apply, so that a review of files keeps its keys. */
export function ruleKey(file: RulesOf): { rules?: string[] } {
  const rules = fileRuleNames(file);
  return rules.length ? { rules } : {};
}

/** The rules' text after the file's code: empty when none applies. */
export function fileRulesBlock(names: readonly string[]): string {
  if (!names.length) return '';
  return `Rules for this file alone, beside the system text's:\n\n${names.map((n) => rule(n)).join('\n')}`;
}

/** A rule said after one step's directive, where it applies to that step's call alone. */
export const stepRule = (name: 'no-inventory' | 'intent-challenge'): string => rule(name);

function rule(name: string): string {
  const text = FILE_RULES[name];
  if (text === undefined) throw new Error(`prompts/file-rules.md has no section "${name}"`);
  return text;
}
