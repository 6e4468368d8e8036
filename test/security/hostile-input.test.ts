/**
 * Hostile input through the real CLI: hostile trees (plain folders and git repositories) and a fake
 * Messages API that attacks (hostile tool paths, endless tool calls, a gateway's HTML page, a refusal,
 * an endpoint echoing the key). Each test checks that nothing from outside the allowed set reached any
 * request body, that the run ended within its bounds, and that the outcome is the documented one.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_UNIT_CALLS } from '../../src/engine/runner';
import { runCli, type CliStop } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';
import { put } from '../helpers/tree';

const KEY = 'sk-ant-api03-hostile-suite-key-0123456789abcdef';
/** Markers that must never appear in a request: outside the root, in secrets, in the environment. */
const OUTSIDE = 'OUTSIDE_MARK_5521';
const SECRET = 'SECRET_MARK_9934';
const ENV = 'ENV_MARK_7781';
const FORBIDDEN = [OUTSIDE, SECRET, ENV, 'root:x:0:0'];
/** A token in GitHub's real format, so the content scanner has something real to find. */
const GITHUB_TOKEN = 'ghp_0123456789abcdefghijklmnopqrstuvwxyz';

interface Tree {
  base: string;
  ws: string;
}

/** A workspace with code, secrets, user-excluded files and links leaving it; `git: true` makes it a repository. */
async function hostileTree(git: boolean): Promise<Tree> {
  const base = mkdtempSync(join(tmpdir(), 'skeptic-hostile-'));
  const ws = join(base, 'ws');
  await put(base, 'outside/secret.txt', `${OUTSIDE}\n`);
  await put(ws, 'src/a.ts', 'export function add(a: number, b: number): number {\n  return a + b;\n}\n');
  await put(ws, 'src/long.ts', `export const s = "${'a'.repeat(40)}";\nexport const t = "${'a'.repeat(2000)}";\n`);
  await put(ws, 'src/creds.ts', `// ${SECRET}\nexport const token = "${GITHUB_TOKEN}";\n`);
  await put(ws, 'src/private.ts', `// ${SECRET} (left out with --exclude)\nexport const x = 1;\n`);
  for (const name of ['prod.env', '.envrc', '.pgpass', 'id_ed25519_sk']) await put(ws, `src/${name}`, `${SECRET}\n`);
  symlinkSync(join(base, 'outside/secret.txt'), join(ws, 'src/link-file.ts'));
  symlinkSync(join(base, 'outside'), join(ws, 'src/link-dir'));
  symlinkSync('/etc', join(ws, 'src/etc'));
  if (git) {
    const g = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: ws,
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
        stdio: 'ignore',
      });
    g('init', '-q', '-b', 'main');
    g('config', 'user.email', 't@example.com');
    g('config', 'user.name', 'T');
    g('config', 'remote.origin.url', `https://x:${GITHUB_TOKEN}@github.com/o/${SECRET}.git`);
    g('add', '-A');
    g('commit', '-q', '--no-verify', '-m', 'hostile');
  }
  return { base, ws };
}

const call = (tool: string, input: Record<string, unknown>) => ({ tool, input });
/** Faults aimed at src/a.ts's units: a cache-prime request (which names no file) never takes them. */
const A_TS = { file: 'src/a.ts' };
/** Every way a model might try to read past the roots or into a secret. */
const HOSTILE_CALLS = [
  call('read_file', { path: '../outside/secret.txt' }),
  call('read_file', { path: '/etc/passwd' }),
  call('read_file', { path: 'src\\..\\..\\outside\\secret.txt' }),
  call('read_file', { path: 'src/a.ts\u0000../../outside/secret.txt' }),
  call('read_file', { path: 'file:///etc/passwd' }),
  call('read_file', { path: '~/.bashrc' }),
  call('read_file', { path: '/proc/self/environ' }),
  call('read_file', { path: 'src/link-file.ts' }),
  call('read_file', { path: 'src/link-dir/secret.txt' }),
  call('read_file', { path: 'src/etc/passwd' }),
  call('read_file', { path: '.git/config' }),
  call('list_dir', { path: '.git' }),
  call('read_file', { path: 'src/prod.env' }),
  call('read_file', { path: 'src/creds.ts' }),
  call('read_file', { path: 'src/private.ts' }),
  call('grep', { pattern: 'MARK|root:x' }),
  call('list_dir', { path: 'src/link-dir' }),
];

describe('hostile input through the CLI', function () {
  this.timeout(60_000);
  const fake = useFakeServer();
  const trees: string[] = [];
  after(() => trees.forEach((t) => rmSync(t, { recursive: true, force: true })));

  const tree = async (git = false) => {
    const t = await hostileTree(git);
    trees.push(t.base);
    return t;
  };
  const review = (ws: string, args: string[], stop?: CliStop) =>
    runCli(['review', '--yes', ...args], {
      cwd: ws,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.server.url, SKEPTIC_TEST_ENV: ENV },
      stop,
    });
  const bodies = () => JSON.stringify(fake.server.requests.map((r) => r.body));
  const assertNothingLeaked = () => {
    const sent = bodies();
    for (const mark of FORBIDDEN) assert.ok(!sent.includes(mark), `"${mark}" reached a request body`);
  };
  /** Each tool result once (later turns of a conversation carry the earlier ones again), in order served. */
  const toolResults = () => {
    const seen = new Map<string, { is_error?: boolean; content?: string }>();
    for (const r of fake.server.requests) {
      for (const m of (r.body as { messages: Array<{ content: unknown }> }).messages) {
        const blocks = Array.isArray(m.content)
          ? (m.content as Array<{ type: string; tool_use_id?: string; is_error?: boolean; content?: string }>)
          : [];
        for (const b of blocks)
          if (b.type === 'tool_result' && b.tool_use_id && !seen.has(b.tool_use_id)) seen.set(b.tool_use_id, b);
      }
    }
    return [...seen.values()];
  };
  const reports = (ws: string) =>
    readdirSync(ws)
      .filter((f) => /\.(md|json)$/.test(f))
      .map((f) => readFileSync(join(ws, f), 'utf8'))
      .join('\n');

  for (const git of [false, true]) {
    describe(git ? 'in a git repository' : 'in a plain folder', () => {
      it('Step 0 reviews only what lies inside, counts links leaving the roots and secrets (by name and content)', async () => {
        const { ws } = await tree(git);
        const plan = await runCli(['plan', '--verbose', '--exclude', 'src/private.ts', 'src'], { cwd: ws });
        assert.equal(plan.code, 0, plan.stderr);
        const listed = [...plan.stdout.matchAll(/^ {2}(src\/\S+)/gm)].map((m) => m[1]);
        assert.deepEqual(listed.sort(), ['src/a.ts', 'src/long.ts']);
        assert.match(plan.stdout, /outside roots: 3\n(\s+src\/(etc|link-dir|link-file\.ts)\n){3}/);
        assert.match(plan.stdout, /src\/creds\.ts \(GITHUB_TOKEN on line 2\)/);
        for (const name of ['prod.env', '.envrc', '.pgpass', 'id_ed25519_sk'])
          assert.match(plan.stdout, new RegExp(`src/${name.replace('.', '\\.')}\\n`));
        assert.doesNotMatch(plan.stdout, new RegExp(`${GITHUB_TOKEN}|${SECRET}|${OUTSIDE}`));
      });

      it('every hostile tool path is refused and nothing from outside the allowed set is sent', async () => {
        const { ws } = await tree(git);
        // Six calls a turn (the runner serves at most eight), each batch in a reply of its own.
        const calls = [call('read_file', { path: 'src/a.ts' }), ...HOSTILE_CALLS];
        const batches = [0, 6, 12].map((i) => calls.slice(i, i + 6));
        fake.server.setScenario({
          ...fake.scenario,
          faults: batches.map(([first, ...also]) => ({
            kind: 'tool_use' as const,
            match: A_TS,
            tool: first!.tool,
            input: first!.input,
            also,
          })),
        });
        const run = await review(ws, ['--exclude', 'src/private.ts', 'src']);
        assert.equal(run.code, 0, run.stderr);
        const results = toolResults();
        assert.equal(results.length, calls.length, 'every call was served');
        const answered = results.filter((r) => !r.is_error).map((r) => r.content ?? '');
        // The plain read and the grep are answered; the grep shows nothing it may not. The rest is refused.
        assert.equal(answered.length, 2, JSON.stringify(answered));
        assert.match(answered[0]!, /^ {3}1\| export function add/);
        // src/long.ts has a line over 2000 characters: the answer says it was searched cut.
        assert.equal(answered[1], 'no matches (lines over 2000 characters were searched in their first 2000)');
        assert.ok(results.every((r) => !/not run: at most/.test(r.content ?? '')));
        assertNothingLeaked();
      });
    });
  }

  it('an endless tool loop ends the unit as "tool budget exhausted" within the per-unit call cap', async () => {
    const { ws } = await tree();
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'tool_use', times: -1, tool: 'list_dir', input: { path: 'src' } }],
    });
    const started = Date.now();
    const run = await review(ws, ['src/a.ts']);
    assert.equal(run.code, 3, run.stderr);
    assert.ok(Date.now() - started < 30_000);
    // One file: its curate unit fails, so nothing else is asked; the unit stayed under its cap.
    assert.ok(fake.server.requests.length <= MAX_UNIT_CALLS, `${fake.server.requests.length} requests`);
    assert.match(reports(ws), /tool budget exhausted/);
    const last = fake.server.requests.at(-1)!.body as { tool_choice?: { type: string } };
    assert.equal(last.tool_choice?.type, 'none', 'the last turn offers no tool calls');
  });

  it('catastrophic regexes over long lines are answered at once (linear-time grep)', async () => {
    const { ws } = await tree();
    fake.server.setScenario({
      ...fake.scenario,
      faults: [
        {
          kind: 'tool_use',
          match: A_TS,
          tool: 'grep',
          input: { pattern: '(a|a)*b' },
          also: [call('grep', { pattern: '.*.*.*.*.*x' }), call('grep', { pattern: '\\w*\\w*\\w*\\w*x' })],
        },
      ],
    });
    const started = Date.now();
    const run = await review(ws, ['src/a.ts', 'src/long.ts']);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(Date.now() - started < 30_000, 'a backtracking engine would pin the thread for minutes');
    const results = toolResults();
    assert.equal(results.length, 3);
    for (const r of results) assert.equal(r.is_error, false, r.content);
  });

  it('a FIFO is refused at once, by Step 0 and by read_file', async () => {
    const { ws } = await tree();
    execFileSync('mkfifo', [join(ws, 'src/pipe.ts')]);
    const plan = await runCli(['plan', '--verbose', 'src'], { cwd: ws });
    assert.match(plan.stdout, /unreadable: 1\n\s+src\/pipe\.ts \(not a regular file\)/);
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'tool_use', match: A_TS, tool: 'read_file', input: { path: 'src/pipe.ts' } }],
    });
    const run = await review(ws, ['src']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(toolResults()[0]!.content ?? '', /not a regular file/);
  });

  it('a 200 answer with an HTML body is retried as a broken gateway answer', async () => {
    const { ws } = await tree();
    fake.server.setScenario({ ...fake.scenario, faults: [{ kind: 'html', times: 2 }] });
    const run = await review(ws, ['src/a.ts']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /not a Messages API reply/);
    assert.match(run.stdout, /2 failed HTTP attempts .* are not counted in the model calls above/);
  });

  it('a refusal is reported as such, with no repair turns', async () => {
    const { ws } = await tree();
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'refusal', times: -1, match: { record: 'Step1Record' } }],
    });
    const run = await review(ws, ['src/a.ts']);
    assert.equal(run.code, 3, run.stderr);
    assert.equal(fake.server.requests.filter((r) => r.record === 'Step1Record').length, 1);
    assert.match(reports(ws), /the model refused to answer/);
  });

  it('an endpoint echoing the key gets it redacted from every report', async () => {
    const { ws } = await tree();
    fake.server.setScenario({
      ...fake.scenario,
      faults: [{ kind: 'echo_auth', status: 400, match: { record: 'Step1Record' } }],
    });
    const run = await review(ws, ['--json', 'out.json', 'src/a.ts']);
    assert.equal(run.code, 3, run.stderr);
    const written = reports(ws);
    assert.match(written, /Authorization: Bearer \[redacted\]/, written);
    for (const text of [written, run.stdout, run.stderr]) assert.ok(!text.includes(KEY.slice(7)), 'the key leaked');
  });

  it('--json and --sarif refuse a file under review and names of another kind, before any call', async () => {
    const { ws } = await tree();
    await put(ws, 'src/data.json', '{"keep": true}\n');
    const under = await review(ws, ['--json', 'src/data.json', 'src']);
    assert.equal(under.code, 2);
    assert.match(under.stderr, /--json src\/data\.json is a file under review/);
    const kind = await review(ws, ['--sarif', 'src/a.ts', 'src']);
    assert.equal(kind.code, 2);
    assert.match(kind.stderr, /--sarif must name a \.sarif file/);
    assert.equal(readFileSync(join(ws, 'src/data.json'), 'utf8'), '{"keep": true}\n');
    assert.equal(fake.server.requests.length, 0);
  });

  it('--events refuses a file under review before any call and leaves it as it was', async () => {
    const { ws } = await tree();
    const before = readFileSync(join(ws, 'src/a.ts'), 'utf8');
    const run = await review(ws, ['--events', 'src/a.ts', 'src']);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--events src\/a\.ts is a file under review/);
    assert.equal(readFileSync(join(ws, 'src/a.ts'), 'utf8'), before);
    assert.equal(fake.server.requests.length, 0);
  });

  it('an unusable --cache-dir is a clear exit 2 before any call', async () => {
    const { ws } = await tree();
    await put(ws, 'cachefile', 'x');
    const run = await review(ws, ['--cache-dir', 'cachefile', 'src/a.ts']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--cache-dir .*cachefile cannot be used: a file is in the way/);
    assert.equal(fake.server.requests.length, 0);
  });

  it('--max-calls stops the run at its ceiling with a partial report (exit 3)', async () => {
    const { ws } = await tree();
    const run = await review(ws, ['--max-calls', '3', 'src/a.ts', 'src/long.ts']);
    assert.equal(run.code, 3, run.stderr);
    assert.ok(fake.server.requests.length <= 3, `${fake.server.requests.length} requests`);
    assert.match(run.stdout, /Stopped early: the run reached its ceiling of 3 model calls/);
    assert.ok(
      readdirSync(ws).some((f) => f.endsWith('.md')),
      'a partial report is written',
    );
  });

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal} during a run stops it without waiting on its calls and writes the partial report (exit ${code})`, async () => {
      const { ws } = await tree();
      fake.server.setScenario({
        ...fake.scenario,
        faults: [{ kind: 'slow', ms: 60_000, times: -1, match: { file: 'src/long.ts' } }],
      });
      // src/a.ts goes through every step while src/long.ts hangs; the signal comes once a.ts is reviewed.
      const reviewed = fake.server.until(
        () =>
          fake.server.requests.find((r) => /Review$/.test(r.record ?? '') && r.file === 'src/a.ts' && r.status === 200),
        'src/a.ts to be reviewed',
      );
      const run = await review(ws, ['src/a.ts', 'src/long.ts'], { signal, when: reviewed });
      assert.equal(run.code, code, run.stderr);
      const hanging = fake.server.requests.filter((r) => r.file === 'src/long.ts');
      assert.ok(hanging.length > 0);
      // Each was still held by the server when the run ended: the client went away instead of waiting.
      assert.deepEqual(
        hanging.map((r) => r.status),
        hanging.map(() => null),
        'the hanging calls were aborted, not awaited',
      );
      assert.ok(
        readdirSync(ws).some((f) => f.endsWith('.md')),
        `no partial report: ${run.stdout} ${run.stderr}`,
      );
    });
  }

  it('the fixture tree itself holds every marker the suite looks for (the checks above can fail)', async () => {
    const { base, ws } = await tree(true);
    assert.ok(readFileSync(join(base, 'outside/secret.txt'), 'utf8').includes(OUTSIDE));
    assert.ok(readFileSync(join(ws, 'src/creds.ts'), 'utf8').includes(SECRET));
    assert.ok(readFileSync(join(ws, '.git/config'), 'utf8').includes(SECRET));
    assert.ok(existsSync(join(ws, 'src/link-dir/secret.txt')));
  });
});
