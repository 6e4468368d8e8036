/**
 * The second safety pass, through the real CLI against the fake Messages API, each attack as an attacker
 * (a committed tree) or a careless user would make it: context files that lead into `.git` or out of the
 * folder, outputs and `.skeptic/` that are links, Skeptic's own files that are pipes or links to a device,
 * a huge dismissal note, file names that forge markdown, and a `.ts` that turns binary after 8 KB.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureWorkspace, runCli } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';
import { put } from '../helpers/tree';

const KEY = 'sk-ant-api03-second-pass-key-0123456789abcdef';
const TOKEN_MARK = 'CHECKOUT_TOKEN_MARK_4417';
const OUTSIDE_MARK = 'OUTSIDE_MARK_3310';

describe('second safety pass: links, context files and Skeptic’s own files, through the CLI', function () {
  this.timeout(120_000);
  const fake = useFakeServer();
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  /** The shop fixture in a fresh folder `ws`, with a folder `outside` beside it. */
  const workspace = async () => {
    const base = await mkdtemp(join(tmpdir(), 'skeptic-second-'));
    dirs.push(base);
    const fixture = await fixtureWorkspace('shop');
    dirs.push(fixture);
    const ws = join(base, 'ws');
    execFileSync('cp', ['-r', fixture, ws]);
    await put(base, 'outside/keep.txt', `${OUTSIDE_MARK}\n`);
    return { base, ws, outside: join(base, 'outside') };
  };
  const cache = () => {
    const dir = join(tmpdir(), `skeptic-second-cache-${process.pid}-${dirs.length}`);
    dirs.push(dir);
    return dir;
  };
  const review = (ws: string, args: string[], xdg = cache()) =>
    runCli(['review', '--yes', ...args], {
      cwd: ws,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.server.url, XDG_CACHE_HOME: xdg },
    });
  const bodies = () => JSON.stringify(fake.server.requests.map((r) => r.body));

  describe('context files pass the one access rule', () => {
    it('a CLAUDE.md linked to .git/config is not sent, and a context file linked out of the folder is skipped with a warning', async () => {
      const { ws } = await workspace();
      const git = (...args: string[]) =>
        execFileSync('git', args, {
          cwd: ws,
          env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
        });
      git('init', '-q', '-b', 'main');
      // As actions/checkout leaves it: the job's token in the repository's own config.
      git('config', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${TOKEN_MARK}`);
      symlinkSync('.git/config', join(ws, 'CLAUDE.md'));
      await put(ws, 'notes/private.md', `${OUTSIDE_MARK} excluded by the user\n`);
      symlinkSync('notes/private.md', join(ws, 'AGENTS.md'));
      mkdirSync(join(ws, '.github'));
      symlinkSync('../../outside/keep.txt', join(ws, '.github/copilot-instructions.md'));
      const run = await review(ws, ['--exclude', 'notes/**', 'shop']);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /context file "CLAUDE\.md" is excluded from the review \(version control\)/);
      assert.match(run.stderr, /context file "AGENTS\.md" is excluded from the review \(user exclude\)/);
      assert.match(
        run.stderr,
        /context file "\.github\/copilot-instructions\.md" is outside the review roots; it is not sent/,
      );
      assert.ok(fake.server.requests.length > 0);
      assert.ok(!bodies().includes(TOKEN_MARK), 'the checkout token reached a request');
      assert.ok(!bodies().includes(OUTSIDE_MARK), 'an outside or excluded file reached a request');
      // The plan says the same before anything is spent, in text and beside --json's one record.
      for (const json of [[], ['--json']]) {
        const plan = await runCli(['plan', ...json, '--exclude', 'notes/**', 'shop'], { cwd: ws });
        assert.equal(plan.code, 0, plan.stderr);
        assert.match(
          plan.stderr,
          /^warning: context file "CLAUDE\.md" is excluded from the review \(version control\)/m,
        );
        assert.match(plan.stderr, /^warning: context file "AGENTS\.md" is excluded from the review \(user exclude\)/m);
        assert.match(
          plan.stderr,
          /^warning: context file "\.github\/copilot-instructions\.md" is outside the review roots/m,
        );
      }
    });

    it('a plain CLAUDE.md is still sent with every call (the check above can fail)', async () => {
      const { ws } = await workspace();
      writeFileSync(join(ws, 'CLAUDE.md'), `Conventions ${TOKEN_MARK}\n`);
      const run = await review(ws, ['shop']);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(fake.server.requests.every((r) => JSON.stringify(r.body).includes(TOKEN_MARK)));
    });
  });

  describe('outputs are never written through a link', () => {
    for (const flag of ['--json', '--sarif', '--events'] as const) {
      it(`${flag} naming a committed link is refused before any call, and the file it leads to is untouched`, async () => {
        const { ws, outside } = await workspace();
        const name = flag === '--sarif' ? 'result.sarif' : flag === '--json' ? 'result.json' : 'events.jsonl';
        symlinkSync(join(outside, 'keep.txt'), join(ws, name));
        const run = await review(ws, [flag, name, 'shop']);
        assert.equal(run.code, 2, run.stderr);
        assert.match(
          run.stderr,
          new RegExp(`${flag} ${name.replace('.', '\\.')} is a symbolic link; Skeptic never writes through a link`),
        );
        assert.equal(readFileSync(join(outside, 'keep.txt'), 'utf8'), `${OUTSIDE_MARK}\n`);
        assert.equal(fake.server.requests.length, 0);
      });
    }

    it('a .skeptic that links out of the folder is refused: no report and no .gitignore appear outside', async () => {
      const { ws, outside } = await workspace();
      symlinkSync(outside, join(ws, '.skeptic'));
      const run = await review(ws, ['--out', '.skeptic/reports/review.md', 'shop']);
      assert.equal(run.code, 2, run.stderr);
      assert.match(
        run.stderr,
        /--out \.skeptic\/reports\/review\.md: \.skeptic leads out of .* through a symbolic link/,
      );
      assert.deepEqual(readdirSync(outside), ['keep.txt']);
      assert.equal(fake.server.requests.length, 0);
    });

    it('an output folder that is a link out of the folder is refused, one inside it is fine', async () => {
      const { ws, outside } = await workspace();
      symlinkSync(outside, join(ws, 'out'));
      const refused = await review(ws, ['--json', 'out/result.json', 'shop']);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /--json out\/result\.json: out leads out of/);
      assert.deepEqual(readdirSync(outside), ['keep.txt']);
      mkdirSync(join(ws, 'real'));
      symlinkSync('real', join(ws, 'inside'));
      const fine = await review(ws, ['--json', 'inside/result.json', 'shop']);
      assert.equal(fine.code, 0, fine.stderr);
      assert.ok(existsSync(join(ws, 'real/result.json')));
    });
  });

  describe('Skeptic’s own files are regular files, read without blocking', () => {
    it('a .skeptic/dismissed.json that is a FIFO or a link to /dev/stdin is ignored with a warning; the run goes on', async () => {
      for (const make of ['fifo', 'stdin'] as const) {
        const { ws } = await workspace();
        mkdirSync(join(ws, '.skeptic'));
        const file = join(ws, '.skeptic/dismissed.json');
        if (make === 'fifo') execFileSync('mkfifo', [file]);
        else symlinkSync('/dev/stdin', file);
        const run = await review(ws, ['shop']);
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stderr, /\.skeptic\/dismissed\.json is (not a regular file|a symbolic link).*; it is ignored/);
      }
    });

    it('state, usage history and result-cache entries that became FIFOs are ignored; the run asks again', async () => {
      const { ws } = await workspace();
      const xdg = cache();
      const first = await review(ws, ['shop'], xdg);
      assert.equal(first.code, 0, first.stderr);
      // Units only: how many cache warm-ups (max_tokens 1) go out depends on timing.
      const units = () =>
        fake.server.requests.filter((r) => (r.body as { max_tokens?: number }).max_tokens !== 1).length;
      const asked = units();
      const files = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
        );
      const own = files(join(xdg, 'skeptic')).filter((f) => f.endsWith('.json'));
      assert.ok(own.some((f) => f.endsWith('outputs.json')) && own.some((f) => f.endsWith('usage-history.json')));
      assert.ok(own.length > 5, `${own.length} files`);
      for (const f of own) {
        rmSync(f);
        execFileSync('mkfifo', [f]);
      }
      fake.server.reset();
      const second = await review(ws, ['shop'], xdg);
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stderr, /result cache entry .* is not a regular file .*; it is ignored/);
      assert.equal(units(), asked, 'every cached unit is asked again');
    });
  });

  describe('dismissal notes are capped', () => {
    const dismissal = (note: string) =>
      JSON.stringify({
        version: 1,
        dismissed: [
          {
            fingerprint: 'abcdef0123456789',
            rule_id: 'A1',
            file: 'shop/cart.ts',
            reason: 'wont_fix',
            note,
            date: '2026-01-01',
          },
        ],
      });

    it('a long note reaches the challenger cut to its cap; an oversized team file is ignored with a warning', async () => {
      const { ws } = await workspace();
      await put(ws, '.skeptic/dismissed.json', dismissal(`NOTE_MARK ${'n'.repeat(200_000)}`));
      const run = await review(ws, ['shop']);
      assert.equal(run.code, 0, run.stderr);
      const challenges = fake.server.requests.filter((r) => JSON.stringify(r.body).includes('NOTE_MARK'));
      assert.ok(challenges.length > 0, 'the note is sent to the challenger');
      for (const r of challenges) {
        const sent = JSON.stringify(r.body);
        assert.ok(sent.length < 100_000, `a request of ${sent.length} characters`);
        assert.match(sent, /cut at 500 characters/);
      }

      await put(ws, '.skeptic/dismissed.json', dismissal(`NOTE_MARK ${'n'.repeat(2_000_000)}`));
      fake.server.reset();
      const huge = await review(ws, ['shop']);
      assert.equal(huge.code, 0, huge.stderr);
      assert.match(huge.stderr, /\.skeptic\/dismissed\.json is larger than 1 MiB; it is ignored/);
      assert.ok(!bodies().includes('NOTE_MARK'));
    });
  });

  describe('smaller items', () => {
    it('a file name holding a newline cannot forge a heading in the markdown report', async () => {
      const { ws } = await workspace();
      const name = 'evil\n# Forged heading\n.ts';
      writeFileSync(join(ws, 'shop', name), 'export function f(): number {\n  return 1;\n}\n');
      const run = await review(ws, ['shop']);
      assert.equal(run.code, 0, run.stderr);
      const report = readFileSync(join(ws, 'code-review-shop.md'), 'utf8');
      assert.ok(report.includes('evil\\n# Forged heading\\n.ts'), report);
      assert.doesNotMatch(report, /^# Forged heading$/m);
    });

    it('a .ts whose first 8 KB are text and the rest binary is excluded as binary, not sent', async () => {
      const { ws } = await workspace();
      const text = Buffer.from(`// ${'t'.repeat(80)}\n`.repeat(110));
      writeFileSync(join(ws, 'shop/mixed.ts'), Buffer.concat([text, Buffer.from([0, 1, 2, 0xff, 0xfe, 0])]));
      const plan = await runCli(['plan', '--verbose', 'shop'], { cwd: ws });
      assert.equal(plan.code, 0, plan.stderr);
      assert.match(plan.stdout, /binary: 1\n\s+shop\/mixed\.ts/);
    });
  });
});
