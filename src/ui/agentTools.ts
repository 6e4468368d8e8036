/**
 * Skeptic inside the editor's agent loop. The language-model tool `skeptic_review` (package.json
 * languageModelTools) reviews the uncommitted or staged changes or given files as a normal review does — its
 * findings land in Problems and the findings view — and answers with one line per finding; before a run that
 * makes model calls, its confirmation shows the estimate. The MCP server definition provider (package.json
 * mcpServerDefinitionProviders) hands other agents in the editor `skeptic mcp` from this extension's own
 * dist/cli.js, run by the editor's Node.
 */
import * as vscode from 'vscode';
import type { ReviewTarget } from '../app/choices';
import type { Finding } from '../model/finding';
import { plural } from '../model/plural';
import { describeEstimate } from '../model/pricing';
import type { FindingStore } from './findingStore';
import type { ReviewController } from './reviewController';

export const REVIEW_TOOL = 'skeptic_review';
export const MCP_PROVIDER = 'skeptic.mcp';

export interface ReviewToolInput {
  /** `changes` (uncommitted, the default), `staged`, or `files` with `paths`. */
  scope?: 'changes' | 'staged' | 'files';
  /** Files or folders, relative to the workspace folder (or absolute inside it). */
  paths?: string[];
}

/** The MCP servers this extension offers the editor: `skeptic mcp` in the first workspace folder. */
export function mcpServers(context: vscode.ExtensionContext): vscode.McpStdioServerDefinition[] {
  const version = (context.extension.packageJSON as { version?: string }).version ?? '';
  const server = new vscode.McpStdioServerDefinition(
    'Skeptic',
    process.execPath,
    [vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath, 'mcp'],
    // In the desktop editor process.execPath is Electron's binary: this makes it Node.
    { ELECTRON_RUN_AS_NODE: '1' },
    version,
  );
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (folder) server.cwd = folder;
  return [server];
}

export function registerAgentTools(
  context: vscode.ExtensionContext,
  controller: ReviewController,
  store: FindingStore,
): vscode.Disposable[] {
  return [
    vscode.lm.registerTool<ReviewToolInput>(REVIEW_TOOL, new ReviewTool(controller, store)),
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER, {
      provideMcpServerDefinitions: () => mcpServers(context),
    }),
  ];
}

class ReviewTool implements vscode.LanguageModelTool<ReviewToolInput> {
  constructor(
    private readonly controller: ReviewController,
    private readonly store: FindingStore,
  ) {}

  async prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<ReviewToolInput>,
  ): Promise<vscode.PreparedToolInvocation> {
    const target = targetOf(options.input);
    const invocationMessage = `Skeptic is reviewing ${describe(target)}`;
    const plan = await this.controller.plan(target);
    // A plan that fails says nothing paid will happen: the run itself reports the problem.
    if (plan.kind !== 'planned' || plan.calls === 0) return { invocationMessage };
    return {
      invocationMessage,
      confirmationMessages: {
        title: 'Run a Skeptic review?',
        message: new vscode.MarkdownString(
          `Reviewing ${describe(target)}: ${plural(plan.files, 'file')}, about ${describeEstimate(plan)}.`,
        ),
      },
    };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<ReviewToolInput>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const target = targetOf(options.input);
    const cancel = token.onCancellationRequested(() => this.controller.cancel());
    try {
      const outcome = await this.controller.run(target, { confirmed: true });
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(this.answer(outcome))]);
    } finally {
      cancel.dispose();
    }
  }

  /** One line per finding, then how the run ended. */
  private answer(outcome: Awaited<ReturnType<ReviewController['run']>>): string {
    if (!outcome)
      return 'Skeptic did not review: another review is running, or the setup needs fixing (see its message).';
    if (outcome.kind === 'skipped') return `Skeptic skipped the review: ${outcome.reason}`;
    if (outcome.kind !== 'finished') return `Skeptic could not review: ${'message' in outcome ? outcome.message : ''}`;
    if (!outcome.summary) return 'Skeptic did not review: the estimate was not confirmed.';
    const lines = this.store.findings.map(findingLine);
    return [...lines, outcome.summary.lines.join(' ')].join('\n');
  }
}

export function findingLine(f: Finding): string {
  const end = f.end_line && f.end_line !== f.line ? `-${f.end_line}` : '';
  return `${f.file}:${f.line}${end} ${f.priority} ${f.rule_id}: ${f.action.replace(/\s+/g, ' ')}`;
}

function targetOf(input: ReviewToolInput): ReviewTarget {
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  if (input.scope === 'files' || (input.paths?.length && input.scope === undefined))
    return { cwd, scope: { kind: 'paths', paths: input.paths ?? [] } };
  return { cwd, scope: { kind: input.scope === 'staged' ? 'staged' : 'changes' } };
}

function describe(t: ReviewTarget): string {
  return t.scope.kind === 'paths'
    ? t.scope.paths.join(', ')
    : t.scope.kind === 'staged'
      ? 'the staged changes'
      : 'the uncommitted changes';
}
