/**
 * `skeptic mcp`: Skeptic as a Model Context Protocol server on stdin/stdout, for coding agents. Four tools —
 * review, plan, findings, dismiss — each a thin adapter over what every surface runs: the CLI's job from its
 * choices (cli/job.ts), `runJob`, the estimate, the kept agent review (app/agentReview.ts) and the dismissals
 * writer. A review reports progress when the client asks for it, stops and keeps what finished when the
 * client cancels, and reads nothing outside the client's roots. A bad call is a tool error naming the
 * argument; the server keeps serving.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { version as VERSION } from '../../../package.json';
import { dismissByFingerprint, UnknownFingerprint } from '../../app/agentDismiss';
import { AgentReview, keepAgentReview, lastReview, scopeKey, scopeLabel } from '../../app/agentReview';
import { cheapestCostUsd, estimateJob } from '../../app/estimate';
import { checkProvider } from '../../app/jobChecks';
import { prepareJob } from '../../app/prepareJob';
import { runJob } from '../../app/runJob';
import { repositoryStateDir } from '../../app/state';
import { RunProgress } from '../../model/progress';
import { EDITOR_PLAN, formatUsd } from '../../model/pricing';
import { plural } from '../../model/plural';
import { redact } from '../../model/redact';
import type { ReviewFlags } from '../args';
import { EXIT, UsageError } from '../help';
import type { CliIo } from '../io';
import { chooseScope, jobFromFlags, keyFor, providerFromFlags } from '../job';
import { atLeast } from '../../model/order';
import {
  DismissInput,
  FindingsInput,
  PlanInput,
  ReviewInput,
  targetScope,
  ToolInputError,
  type PlanInput as ScopeInput,
} from './input';
import { checkPaths, rootsOf, workingFolder } from './roots';

const PlanOutput = z.object({
  scope: z.string(),
  files: z.array(z.string()).describe('the files a review would read'),
  excluded: z.number().int().describe('files left out (generated, secrets, too large, excluded)'),
  calls: z.number().int().describe('model calls, leaving out what the result cache answers'),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_usd: z
    .number()
    .nullable()
    .describe("the estimate in US dollars; null when a model has no price or the editor's plan bills the calls"),
  cheapest_cost_usd: z.number().nullable().describe('the least the run can cost: what max_cost_usd is held to'),
});

const DismissOutput = z.object({
  fingerprint: z.string(),
  rule: z.string(),
  file: z.string(),
  who: z.enum(['team', 'user']),
  reason: z.string(),
});

export async function mcpCommand(argv: string[], io: CliIo): Promise<number> {
  if (argv.length) throw new UsageError(`skeptic mcp takes no arguments (got ${argv.join(' ')}); it serves on stdio`);
  const server = new McpServer({ name: 'skeptic', version: VERSION }, { capabilities: { logging: {} } });
  registerTools(server, new Tools(server, io));
  const transport = new StdioServerTransport(io.stdin, io.stdout);
  const closed = new Promise<void>((done) => (transport.onclose = done));
  // The client ends the session by closing our stdin (or by a signal, which the command line turns into an abort).
  io.stdin.once('end', () => void server.close());
  io.signal.addEventListener('abort', () => void server.close(), { once: true });
  await server.connect(transport);
  await closed;
  return EXIT.ok;
}

/** The four tools: review, plan, findings, dismiss; each reports its failure as a tool error (guarded). */
function registerTools(server: McpServer, tools: Tools): void {
  server.registerTool(
    'review',
    {
      title: 'Review code',
      description:
        'Review code with Skeptic: sub-agents find problems and then try to disprove each one. Returns the surviving findings with a fix prompt each, new_since_last per finding, and converged: true once a review of the same scope finds nothing new (loop: fix, review, until converged). Unchanged code costs no calls.',
      inputSchema: ReviewInput,
      outputSchema: AgentReview,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (input, extra) => guarded(() => tools.review(input, extra)),
  );
  server.registerTool(
    'plan',
    {
      title: 'Estimate a review',
      description:
        'What a review of the scope would read, its model calls and its cost in dollars. Makes no model call.',
      inputSchema: PlanInput,
      outputSchema: PlanOutput,
      annotations: { readOnlyHint: true },
    },
    (input) => guarded(() => tools.plan(input)),
  );
  server.registerTool(
    'findings',
    {
      title: 'Last review of a scope',
      description: "The last review of the scope, replayed without a model call (the same shape as review's).",
      inputSchema: FindingsInput,
      outputSchema: AgentReview,
      annotations: { readOnlyHint: true },
    },
    (input) => guarded(() => tools.findings(input)),
  );
  server.registerTool(
    'dismiss',
    {
      title: 'Dismiss a finding',
      description:
        "Dismiss a finding by its fingerprint so later reviews leave it out: into the team's .skeptic/dismissed.json (the file the editor writes) or the user's own list.",
      inputSchema: DismissInput,
      outputSchema: DismissOutput,
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    (input) => guarded(() => tools.dismiss(input)),
  );
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

class Tools {
  constructor(
    private readonly server: McpServer,
    private readonly io: CliIo,
  ) {}

  async review(input: ReviewInput, extra: Extra): Promise<CallToolResult> {
    const folder = await this.folder(input.root);
    const flags = await this.flags(input, folder, {
      ...(input.max_calls ? { maxCalls: input.max_calls } : {}),
      ...(input.max_cost_usd ? { maxCostUsd: input.max_cost_usd } : {}),
    });
    const provider = providerFromFlags(flags.choices, this.io.env);
    const job = await jobFromFlags(
      flags,
      { cwd: folder, env: this.io.env },
      keyOrHowTo(provider, this.io.env),
      provider,
    );
    checkProvider(job);
    const progress = new RunProgress(job.mode ?? 'staged');
    const token = extra._meta?.progressToken;
    let sent = 0;
    const outcome = await runJob(job, {
      emit: (e) => {
        if (!progress.update(e) || token === undefined) return;
        const params = { progressToken: token, progress: ++sent, message: progress.line() };
        void extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
      },
      signal: extra.signal,
    });
    const label = scopeLabel(job.scope);
    if (outcome.kind === 'skipped')
      return textError(
        `not reviewed: ${outcome.reason} (scope ${label}; pass paths to review files whatever their change)`,
      );
    if (outcome.kind === 'declined') return textError('the review was declined');
    const { result, outputs } = outcome;
    if (!outputs) return textError(result.stop?.message ?? 'the review stopped before any file was reviewed');
    const review = await keepAgentReview(job, result, outputs.reportPath);
    return reviewResult(review, input.min_priority, summaryOf(review));
  }

  async plan(input: PlanInput): Promise<CallToolResult> {
    const folder = await this.folder(input.root);
    const job = await jobFromFlags(await this.flags(input, folder), { cwd: folder, env: this.io.env }, '');
    checkProvider(job);
    const prepared = await prepareJob(job, { plan: true });
    const est = await estimateJob(job, prepared);
    await prepared.access.facts.store.flush();
    const plan: z.infer<typeof PlanOutput> = {
      scope: prepared.scope.description,
      files: prepared.inventory.discovery.file_entries.map((e) => e.path),
      excluded: prepared.inventory.excluded.length,
      calls: est.calls,
      input_tokens: est.inputTokens,
      output_tokens: est.outputTokens,
      cost_usd: est.costUsd,
      cheapest_cost_usd: cheapestCostUsd(est),
    };
    const cost = est.billing === 'editor' ? EDITOR_PLAN : `~${formatUsd(plan.cost_usd)}`;
    const text = `${plan.scope}: ${plural(plan.files.length, 'file')}, ~${plural(plan.calls, 'model call')}, ${cost}`;
    return { structuredContent: plan, content: [{ type: 'text', text }] };
  }

  async findings(input: FindingsInput): Promise<CallToolResult> {
    const folder = await this.folder(input.root);
    const job = await jobFromFlags(await this.flags(input, folder), { cwd: folder, env: this.io.env }, '');
    const last = await lastReview(job.stateDir, scopeKey(job.cwd, job.mode, job.scope));
    if (!last)
      throw new ToolInputError('scope', `no review of ${scopeLabel(job.scope)} is kept yet; call review first`);
    return reviewResult(
      last,
      input.min_priority,
      `replayed the review of ${last.reviewed_at} (no model call): ${summaryOf(last)}`,
    );
  }

  async dismiss(input: DismissInput): Promise<CallToolResult> {
    const folder = await this.folder(input.root);
    const stateDir = await repositoryStateDir(folder, this.io.env);
    const who = input.who ?? 'team';
    const record = await dismissByFingerprint(
      { cwd: folder, stateDir },
      { fingerprint: input.fingerprint, reason: input.reason, ...(input.note ? { note: input.note } : {}), who },
    ).catch((err: unknown) => {
      throw err instanceof UnknownFingerprint ? new ToolInputError('fingerprint', err.message) : err;
    });
    const where = who === 'team' ? '.skeptic/dismissed.json' : "the user's own dismissals";
    return {
      structuredContent: {
        fingerprint: record.fingerprint,
        rule: record.rule_id,
        file: record.file,
        who,
        reason: record.reason,
      },
      content: [
        { type: 'text', text: `dismissed ${record.rule_id} in ${record.file} (${record.fingerprint}) into ${where}` },
      ],
    };
  }

  /** The folder the call works in, inside the client's roots. */
  private async folder(root: string | undefined): Promise<string> {
    return workingFolder(await rootsOf(this.server.server, this.io.cwd), root);
  }

  /** The review's flags as `skeptic review --yes` would have them, its scope detected when not named; reports go to .skeptic/reports. */
  private async flags(
    input: ScopeInput,
    folder: string,
    ceilings: Pick<ReviewFlags['choices'], 'maxCalls' | 'maxCostUsd'> = {},
  ): Promise<Awaited<ReturnType<typeof chooseScope>>['flags']> {
    const scope = targetScope(input);
    if (scope.kind === 'paths') await checkPaths(folder, scope.paths);
    const flags: ReviewFlags = {
      choices: {
        scope,
        mode: input.mode ?? 'staged',
        includeUntracked: true,
        force: false,
        excludes: [],
        contextFiles: [],
        reportFolder: '',
        ...ceilings,
      },
      yes: true,
      help: false,
      verbose: false,
    };
    return (await chooseScope(flags, { cwd: folder, env: this.io.env })).flags;
  }
}

/** The key the provider needs; without one, a message that says how to give it to this server. */
function keyOrHowTo(provider: ReturnType<typeof providerFromFlags>, env: NodeJS.ProcessEnv): string {
  try {
    return keyFor(provider, env);
  } catch (err) {
    throw new Error(
      `${(err as Error).message}. For skeptic mcp, set it in the server's environment: claude mcp add skeptic -e ANTHROPIC_API_KEY=sk-ant-… -- skeptic mcp, or "env": { "ANTHROPIC_API_KEY": "…" } in the client's MCP configuration`,
    );
  }
}

function reviewResult(review: AgentReview, min: ReviewInput['min_priority'], text: string): CallToolResult {
  return {
    structuredContent: { ...review, findings: atLeast(review.findings, min) },
    content: [{ type: 'text', text }],
  };
}

/** A line an agent reads first: counts, what is new, converged or not, calls and cost. */
function summaryOf(r: AgentReview): string {
  const fresh = r.findings.filter((f) => f.new_since_last).length;
  const state = r.converged
    ? 'converged: nothing new since the last review'
    : r.complete
      ? 'not converged'
      : `incomplete: ${r.stopped ?? 'some files could not be reviewed'}`;
  return `${plural(r.findings.length, 'finding')} (${r.counts.must_fix} must fix, ${r.counts.should_fix} should fix, ${r.counts.nice_to_have} nice to have), ${fresh} new; ${state}; ${plural(r.calls, 'model call')}, ${formatUsd(r.cost_usd)}${r.report ? `; report ${r.report}` : ''}`;
}

function textError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** Any failure of a call is its tool error, one line without a key in it; the server goes on. */
async function guarded(call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await call();
  } catch (err) {
    return textError(redact(err instanceof Error ? err.message : String(err)));
  }
}
