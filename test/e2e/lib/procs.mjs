// Child processes, each in its own process group (spawned with detached: true, so pgid === pid),
// tracked so that everything the runner started is stopped by group: on success, on failure, on
// SIGINT/SIGTERM/SIGHUP, and (with SIGKILL, synchronously) on process exit.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

const groups = new Map(); // pgid -> name

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** Stops one process group: SIGTERM, then SIGKILL after graceMs if any member is still alive. */
export async function stopGroup(pgid, graceMs = 5000) {
  if (!groups.has(pgid) && !groupAlive(pgid)) return;
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pgid)) {
    signalGroup(pgid, 'SIGKILL');
    const hard = Date.now() + 3000;
    while (groupAlive(pgid) && Date.now() < hard) await new Promise((r) => setTimeout(r, 50));
  }
  groups.delete(pgid);
}

export async function stopAll() {
  await Promise.all([...groups.keys()].reverse().map((pgid) => stopGroup(pgid)));
}

export function trackedGroups() {
  return [...groups.entries()].map(([pgid, name]) => ({ pgid, name, alive: groupAlive(pgid) }));
}

/** Registers an externally created process group (e.g. the browser that playwright spawned detached). */
export function adoptGroup(pgid, name) {
  groups.set(pgid, name);
}

/**
 * Spawns `cmd args` in a new process group. Output goes to `logFile` (and to the console with `echo`).
 * Returns the ChildProcess; `child.exited` is a promise of the exit code (or signal name).
 */
export function spawnGroup(name, cmd, args, { cwd, env, logFile, echo = false, onLine } = {}) {
  const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) groups.set(child.pid, name);
  const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
  let tail = '';
  let pending = '';
  const onData = (buf) => {
    const text = buf.toString();
    log?.write(text);
    if (echo) process.stdout.write(text.replace(/^/gm, `  [${name}] `).replace(/ {2}\[[^\]]*\] $/, ''));
    tail = (tail + text).slice(-6000);
    if (onLine) {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) onLine(line);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  child.tail = () => tail;
  child.exited = new Promise((resolve) => {
    child.on('error', (err) => {
      tail += `\n${err.message}`;
      resolve(`spawn error: ${err.message}`);
    });
    child.on('exit', (code, signal) => {
      log?.end();
      resolve(code ?? signal);
    });
  });
  return child;
}

/** Runs a command to completion in its own process group; rejects with the output's tail on failure. */
export async function runChecked(name, cmd, args, { timeoutMs = 15 * 60_000, ...opts } = {}) {
  const child = spawnGroup(name, cmd, args, opts);
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const code = await Promise.race([child.exited, timeout]);
  clearTimeout(timer);
  if (child.pid !== undefined) await stopGroup(child.pid, 2000);
  if (code !== 0) {
    const why = code === 'timeout' ? `did not finish within ${Math.round(timeoutMs / 1000)} s` : `exited with ${code}`;
    throw new Error(
      `${name} (${cmd} ${args.join(' ')}) ${why}${opts.logFile ? ` (log: ${opts.logFile})` : ''}\n--- last output ---\n${child.tail().slice(-3000)}`,
    );
  }
  return child.tail();
}

let handlersInstalled = false;
/** SIGINT/SIGTERM/SIGHUP: stop every group, run `onSignal`, exit 128+n. On exit: SIGKILL leftovers. */
export function installSignalHandlers(onSignal) {
  if (handlersInstalled) return;
  handlersInstalled = true;
  const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
  let stopping = false;
  for (const [sig, code] of Object.entries(codes)) {
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      console.error(
        `\ne2e: ${sig} received: stopping everything started (${
          trackedGroups()
            .map((g) => g.name)
            .join(', ') || 'nothing running'
        })`,
      );
      Promise.resolve()
        .then(() => onSignal?.(sig))
        .catch(() => {})
        .then(() => stopAll())
        .finally(() => process.exit(code));
    });
  }
  process.on('exit', () => {
    for (const pgid of groups.keys()) signalGroup(pgid, 'SIGKILL');
  });
}
