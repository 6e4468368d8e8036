/**
 * Message Batches against a hostile server or a careless state folder (issue 36, low items), through the real
 * CLI: a batch whose `results_url` names another host is not fetched (the key never goes there); a ledger that
 * is a FIFO is never opened by `skeptic review --batch` (it blocked the run for good): said, and the run goes on
 * without it; `skeptic batches` asks a ledger's many batches a few at a time, not all at once.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchLedgerFile, repositoryStateDir } from '../../src/app/state';
import { fixtureWorkspace, loadJson, runCli } from '../helpers/cli';
import { useFakeServer } from '../helpers/fakeServer';
import { forward, hostile, relay } from '../helpers/hostileServer';
import { editedShop } from '../helpers/shop-change';
import type { StagedJsonReport } from '../../src/report/json';

const KEY = 'sk-ant-batch-key-never-elsewhere';

describe('Message Batches: a hostile server, a careless state folder', function () {
  this.timeout(120_000);
  const fake = useFakeServer();

  it('a batch whose results_url is on another host: refused, said, and not one request (nor the key) goes there', async () => {
    const elsewhere: IncomingHttpHeaders[] = [];
    const thief = await hostile((req, res) => {
      elsewhere.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/binary' });
      res.end();
    });
    // Everything goes to the fake, but a retrieved batch names the thief's address for its results.
    const proxy = await hostile((req, res, body) => {
      const target = new URL(req.url ?? '/', fake.server.url);
      if (req.method !== 'GET' || !/^\/v1\/messages\/batches\/[^/]+$/.test(target.pathname))
        return forward(req, body, target, relay(res));
      forward(req, body, target, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (d: Buffer) => chunks.push(d));
        answer.on('end', () => {
          const batch = JSON.parse(Buffer.concat(chunks).toString()) as { results_url?: string | null };
          if (batch.results_url) batch.results_url = `${thief.url}${new URL(batch.results_url).pathname}`;
          res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' });
          res.end(JSON.stringify(batch));
        });
      });
    });
    try {
      const cwd = await fixtureWorkspace('shop');
      const run = await runCli(['review', 'shop', '--yes', '--batch', '--max-attempts', '2'], {
        cwd,
        env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: proxy.url },
      });
      assert.ok(fake.server.batches().length > 0, 'batches were made');
      // Before: the results were fetched from the other host, the key in x-api-key.
      assert.deepEqual(elsewhere, [], 'no request reached the other host');
      assert.equal(run.code, 3, run.stderr);
      assert.match(run.stderr, /results_url is on another host \(127\.0\.0\.1:\d+\), which is not sent the key/);
    } finally {
      await proxy.close();
      await thief.close();
    }
  });

  it('skeptic review --batch with a ledger that is a FIFO: said in one line, never opened; the review goes on without it', async () => {
    const repo = editedShop();
    const env = {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: fake.server.url,
      XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'skeptic-user-cache-')),
    };
    const ledger = batchLedgerFile(await repositoryStateDir(repo.dir, env));
    mkdirSync(join(ledger, '..'), { recursive: true });
    execFileSync('mkfifo', [ledger]);
    // Before: the run opened the FIFO to read it and blocked there for good, SIGTERM ignored.
    const run = await runCli(['review', '--changes', '--yes', '--batch', '--json', 'r.json'], { cwd: repo.dir, env });
    assert.equal(run.code, 0, run.stderr);
    const said = run.stderr.split('\n').filter((l) => l.includes('batches.json'));
    assert.deepEqual(
      said.map((l) => l.replace(ledger, 'LEDGER')),
      [
        "warning: the batch ledger LEDGER is not a regular file (a pipe, socket or device); delete it to start a new one; this run's batches are not kept for a rerun",
      ],
    );
    assert.ok(fake.server.batches().length > 0, 'the review ran in batches');
    assert.ok((await loadJson<StagedJsonReport>(repo.path('r.json'))).findings.length > 0);
  });

  it('skeptic batches asks a ledger of 40 batches a few at a time, every one of them', async () => {
    const repo = editedShop();
    const env = { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'skeptic-user-cache-')) };
    const ledger = batchLedgerFile(await repositoryStateDir(repo.dir, env));
    mkdirSync(join(ledger, '..'), { recursive: true });
    const created_at = new Date().toISOString();
    const ids = Array.from({ length: 40 }, (_, i) => `msgbatch_gone${String(i).padStart(4, '0')}`);
    writeFileSync(ledger, JSON.stringify(ids.map((id) => ({ id, created_at, requests: { [`u-${id}`]: 'h' } }))));
    // The fake answers each retrieve (404: it keeps none of them); each is held a while to see how many overlap.
    let open = 0;
    let most = 0;
    const asked: string[] = [];
    const proxy = await hostile((req, res, body) => {
      asked.push(req.url ?? '');
      most = Math.max(most, ++open);
      res.on('close', () => open--);
      setTimeout(() => forward(req, body, new URL(req.url ?? '/', fake.server.url), relay(res)), 100);
    });
    try {
      const run = await runCli(['batches'], {
        cwd: repo.dir,
        env: { ...env, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: proxy.url },
      });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout.split('not found').length - 1, 40, run.stdout);
      assert.deepEqual(asked.sort(), ids.map((id) => `/v1/messages/batches/${id}`).sort());
      // Before: all 40 (a real ledger: 20,000) at once.
      assert.ok(most <= 8, `${most} retrieves at once`);
    } finally {
      await proxy.close();
    }
  });
});
