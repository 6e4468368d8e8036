/**
 * A careless operator's input (issue 36, low items): a --prices file that is a FIFO (it hung, SIGTERM ignored)
 * or that prices a model at 1e308 (every total printed as $NaN). Each is refused before any call, in one line.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchLedgerFile, repositoryStateDir } from '../../src/app/state';
import { runCli } from '../helpers/cli';
import { editedShop } from '../helpers/shop-change';

describe('careless operator input to the CLI', function () {
  this.timeout(60_000);

  it('--prices: a FIFO is refused (not waited on), and a price of 1e308 is refused, not printed as $NaN', async () => {
    const repo = editedShop();
    execFileSync('mkfifo', [repo.path('prices.fifo')]);
    const fifo = await runCli(['plan', '--changes', '--prices', 'prices.fifo'], { cwd: repo.dir });
    assert.equal(fifo.code, 2, fifo.stderr);
    assert.match(fifo.stderr, /^skeptic: --prices prices\.fifo: not a regular file$/m);
    writeFileSync(repo.path('huge.json'), JSON.stringify({ 'claude-sonnet-5-5': { input: 1e308, output: 1e308 } }));
    const huge = await runCli(['plan', '--changes', '--prices', 'huge.json'], { cwd: repo.dir });
    assert.equal(huge.code, 2, huge.stderr);
    assert.match(huge.stderr, /input: a price is dollars per million tokens, at most 1,000,000/);
    assert.doesNotMatch(`${huge.stdout}${huge.stderr}`, /NaN/);
  });

  it('a batch ledger that is a FIFO is refused in one line (not waited on)', async () => {
    const repo = editedShop();
    const cache = mkdtempSync(join(tmpdir(), 'skeptic-user-cache-'));
    const env = { XDG_CACHE_HOME: cache };
    const ledger = batchLedgerFile(await repositoryStateDir(repo.dir, env));
    mkdirSync(join(ledger, '..'), { recursive: true });
    execFileSync('mkfifo', [ledger]);
    const run = await runCli(['batches'], { cwd: repo.dir, env });
    assert.equal(run.code, 2, run.stderr);
    assert.equal(
      run.stderr,
      `skeptic: the batch ledger ${ledger} is not a regular file (a pipe, socket or device); delete it to start a new one\n`,
    );
  });
});
