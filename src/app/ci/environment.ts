/**
 * What a GitHub Actions step knows about the pull request it runs for: the standard variables and the
 * event file (GITHUB_EVENT_PATH), checked with zod. Every problem is a SetupError saying what to change.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { SetupError } from '../../model/setup';

const Sha = z.string().regex(/^[0-9a-f]{40}$/);
const Side = z.object({
  sha: Sha,
  ref: z.string(),
  /** Null when the fork the PR came from was deleted. */
  repo: z.object({ full_name: z.string() }).nullable(),
});

const PullRequestEvent = z.object({
  pull_request: z.object({
    number: z.number().int().positive(),
    title: z.string(),
    body: z.string().nullable().optional(),
    html_url: z.string().optional(),
    base: Side,
    head: Side,
  }),
});

export interface CiContext {
  apiUrl: string;
  token: string;
  /** owner/name of the repository the PR is in. */
  repository: string;
  pr: {
    number: number;
    title: string;
    /** The description ('' when the author left none). */
    body: string;
    baseSha: string;
    headSha: string;
    headRepository: string | null;
  };
  /** Where the job summary goes (GITHUB_STEP_SUMMARY), if the runner gives one. */
  stepSummary?: string;
  /** This run's page, for the summary's link. */
  runUrl?: string;
}

const WORKFLOW_HINT = 'skeptic ci runs as a step of a workflow on pull_request or pull_request_target (see docs/ci.md)';

export async function readCiContext(env: NodeJS.ProcessEnv): Promise<CiContext> {
  const eventPath = env.GITHUB_EVENT_PATH;
  if (!eventPath) throw new SetupError(`GITHUB_EVENT_PATH is not set: ${WORKFLOW_HINT}`);
  const text = await readFile(eventPath, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new SetupError(`cannot read the event file ${eventPath} (GITHUB_EVENT_PATH): ${err.code ?? err.message}`);
  });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new SetupError(`the event file ${eventPath} (GITHUB_EVENT_PATH) is not JSON`);
  }
  const event = PullRequestEvent.safeParse(raw);
  if (!event.success) {
    const name = env.GITHUB_EVENT_NAME ? `a ${env.GITHUB_EVENT_NAME} event` : 'an event';
    const notPr = !(typeof raw === 'object' && raw !== null && 'pull_request' in raw);
    throw new SetupError(
      notPr
        ? `${eventPath} holds ${name} without a pull request: ${WORKFLOW_HINT}`
        : `the pull request in ${eventPath} lacks ${event.error.issues[0]?.path.join('.') ?? 'a field'}: ${WORKFLOW_HINT}`,
    );
  }
  const repository = env.GITHUB_REPOSITORY ?? '';
  if (!/^[^/\s]+\/[^/\s]+$/.test(repository))
    throw new SetupError(`GITHUB_REPOSITORY must be owner/name, got "${repository}"`);
  const token = env.GITHUB_TOKEN?.trim();
  if (!token)
    throw new SetupError('GITHUB_TOKEN is not set: pass it to the step (env: GITHUB_TOKEN: ${{ github.token }})');
  const pr = event.data.pull_request;
  const server = env.GITHUB_SERVER_URL?.replace(/\/+$/, '');
  return {
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    token,
    repository,
    pr: {
      number: pr.number,
      title: pr.title,
      body: pr.body ?? '',
      baseSha: pr.base.sha,
      headSha: pr.head.sha,
      headRepository: pr.head.repo?.full_name ?? null,
    },
    ...(env.GITHUB_STEP_SUMMARY ? { stepSummary: env.GITHUB_STEP_SUMMARY } : {}),
    ...(server && env.GITHUB_RUN_ID ? { runUrl: `${server}/${repository}/actions/runs/${env.GITHUB_RUN_ID}` } : {}),
  };
}
