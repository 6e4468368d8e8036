/** A pull request of the shop fixture and `skeptic ci` run on it as an Actions step, against the fake GitHub. */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeGitHub } from '../fake-github/server';
import { FIXTURES, runCli, type CliStop } from './cli';
import { TempRepo } from './git-repo';
import { editShop } from './shop-change';

export const PR_REPO = 'acme/shop';

/** The shop on main, and a pull request branch that edits Cart.total (lines 17-18) and parsePrice (line 11). */
export function shopPullRequest(): { repo: TempRepo; base: string; head: string } {
  const repo = new TempRepo();
  cpSync(join(FIXTURES, 'shop'), repo.path('shop'), { recursive: true });
  repo.commit('shop');
  const base = repo.git('rev-parse', 'HEAD').trim();
  repo.git('checkout', '-q', '-b', 'feature');
  editShop(repo);
  repo.commit('pricing in cents');
  return { repo, base, head: repo.git('rev-parse', 'HEAD').trim() };
}

export interface CiRunOptions {
  token?: string;
  args?: string[];
  event?: unknown;
  title?: string;
  fakeDiff?: string;
  env?: Record<string, string>;
  /** A signal sent to the run once `when` holds (see runCli). */
  stop?: CliStop;
}

/** Runs `skeptic ci` in the checkout for pull request 7 at its current head, with the fake's copy of the diff. */
export async function runCi(
  github: FakeGitHub,
  anthropicUrl: string,
  pr: { repo: TempRepo; base: string },
  opts: CiRunOptions = {},
) {
  const head = pr.repo.git('rev-parse', 'HEAD').trim();
  github.setPull(PR_REPO, { number: 7, headSha: head, diff: opts.fakeDiff ?? pr.repo.git('diff', pr.base, head) });
  const dir = mkdtempSync(join(tmpdir(), 'skeptic-gha-'));
  const event = join(dir, 'event.json');
  const summary = join(dir, 'summary.md');
  const side = (sha: string, ref: string) => ({ sha, ref, repo: { full_name: PR_REPO } });
  writeFileSync(
    event,
    JSON.stringify(
      opts.event ?? {
        action: 'synchronize',
        pull_request: {
          number: 7,
          title: opts.title ?? 'Pricing in cents',
          body: null,
          base: side(pr.base, 'main'),
          head: side(head, 'feature'),
        },
      },
    ),
  );
  const run = await runCli(['ci', ...(opts.args ?? [])], {
    cwd: pr.repo.dir,
    env: {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: anthropicUrl,
      GITHUB_EVENT_PATH: event,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_REPOSITORY: PR_REPO,
      GITHUB_API_URL: github.url,
      GITHUB_TOKEN: opts.token ?? 'bot-token',
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_RUN_ID: '42',
      ...opts.env,
    },
    ...(opts.stop ? { stop: opts.stop } : {}),
  });
  return { ...run, summary: existsSync(summary) ? readFileSync(summary, 'utf8') : '' };
}
