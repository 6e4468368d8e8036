/** The hover over a finding's line: which rule, how sure, and why it survived the challenger. */
import * as vscode from 'vscode';
import type { Finding } from '../model/finding';
import { ruleInfo } from '../model/rules';
import type { ProblemsView } from './diagnostics';

const PRIORITY: Record<Finding['priority'], string> = {
  must_fix: 'must fix',
  should_fix: 'should fix',
  nice_to_have: 'nice to have',
};

export function findingHover(problems: ProblemsView): vscode.HoverProvider {
  return {
    provideHover(doc, position) {
      const found = problems.findingsAt(doc.uri, position.line);
      if (found.length === 0) return undefined;
      return new vscode.Hover(found.map((f) => hoverText(f, problems.rulePage(f.rule_id))));
    },
  };
}

export function hoverText(f: Finding, page: vscode.Uri | undefined): vscode.MarkdownString {
  const rule = ruleInfo(f.rule_id);
  const md = new vscode.MarkdownString(undefined, true);
  const name = rule ? `${rule.id} · ${rule.name}` : f.rule_id;
  md.appendMarkdown(
    `**Skeptic ${page ? `[${escape(name)}](${page.toString()})` : escape(name)}** — ${PRIORITY[f.priority]}, ${f.confidence} confidence\n\n`,
  );
  if (rule) md.appendMarkdown(`${escape(rule.summary)}\n\n`);
  md.appendMarkdown(
    f.verdict
      ? `*Challenger:* ${escape(f.verdict)}`
      : f.unchallenged
        ? '*Challenger:* could not run; this finding was not challenged.'
        : '*Challenger:* not part of this review mode.',
  );
  return md;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
