import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO, runCli } from '../helpers/cli';

describe('the CLI speaks to a user', () => {
  it('prints its version', async () => {
    const { version } = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const run = await runCli([flag], { cwd: REPO });
      assert.equal(run.code, 0);
      assert.equal(run.stdout, `skeptic ${version}\n`);
    }
  });

  it('names a bad flag and points to --help, in one line', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['review', '--frobnicate'], /^skeptic: unknown option --frobnicate; see skeptic --help for the options\n$/],
      [['plan', '--out'], /^skeptic: --out needs a value; see skeptic --help for the options\n$/],
      [['review', '--yes=1'], /^skeptic: --yes takes no value; see skeptic --help for the options\n$/],
      [
        ['reveiw'],
        /^skeptic: unknown command "reveiw"; the commands are review, plan, ci, hook, eval, doctor, batches and mcp \(see skeptic --help\)\n$/,
      ],
    ];
    for (const [args, expected] of cases) {
      const run = await runCli(args, { cwd: REPO });
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.stderr, expected);
    }
  });
});
