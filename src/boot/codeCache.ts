/**
 * Starts a bundle (dist/cli.bundle.js, dist/worker.bundle.js) from V8's code cache, so that a start does not
 * compile the same megabytes of JavaScript again. Node's own compile cache where there is one
 * (`module.enableCompileCache`, Node ≥ 22.1); else a `vm.Script` with cached data, made once per bundle
 * and Node/V8 version. Kept per user beside the result cache; SKEPTIC_NO_CODE_CACHE=1 turns it off.
 * Whatever is wrong with the cache (missing, unreadable, corrupt, rejected by V8, unwritable) costs one
 * ordinary compile, never the run.
 */
import { isAscii } from 'node:buffer';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { threadId } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import { userCacheRoot } from '../io/userCache';

export const CODE_CACHE_OFF = 'SKEPTIC_NO_CODE_CACHE';

/**
 * When the cached data is made: by then a review has sent its first requests, so everything its start
 * compiled is in it. A shorter run (`--version`, a usage error) saves as it exits.
 */
const SAVE_AFTER_MS = 1500;

/** Where the code cache lives: `<user cache>/skeptic/code-cache/`. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(userCacheRoot(env), 'skeptic', 'code-cache');
}

/**
 * Loads and runs `bundle` as a CommonJS module, through the code cache unless it is turned off. `use`
 * names what this start will do (a CLI command): V8 caches only the functions a run compiled, so each use
 * keeps data of its own, and `--version` does not leave a review without most of its code.
 */
export function runBundle(bundle: string, use = 'run', env: NodeJS.ProcessEnv = process.env): void {
  const load = () => createRequire(bundle)(bundle) as unknown;
  if (env[CODE_CACHE_OFF]) return void load();
  const nodeCache = (Module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (nodeCache) {
    try {
      nodeCache(codeCacheDir(env));
    } catch {
      // Node reports a cache it cannot use in its return value; a throw means the same here.
    }
    return void load();
  }
  // A script read from cached data cannot import(): the bundles get built-ins this way instead (esbuild.mjs).
  if (!('getBuiltinModule' in process)) return void load();
  runWithCachedData(bundle, use, codeCacheDir(env));
}

function runWithCachedData(bundle: string, use: string, dir: string): void {
  const bytes = readFileSync(bundle);
  // The bundles are ASCII (esbuild escapes the rest): a one-byte string, without decoding UTF-8.
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const name = `${basename(bundle, '.js')}-${use}`;
  // A checksum of the content, as Node's own compile cache keys it; V8 checks its version and flags itself.
  const key = `${bytes.length.toString(36)}-${crc32(bytes).toString(36)}-${process.versions.v8}-${process.arch}`;
  const file = join(dir, `${name}-${key}.v8`);
  const cachedData = readCachedData(file);
  const script = new Script(Module.wrap(source), { filename: bundle, ...(cachedData ? { cachedData } : {}) });
  if (!cachedData || script.cachedDataRejected) saveLater(script, file, name);
  const mod = new Module(bundle);
  mod.filename = bundle;
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: Module,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(mod.exports, mod.exports, createRequire(bundle), mod, bundle, dirname(bundle));
}

/** The file holds a CRC-32 of the data, then the data: V8 would trust a corrupt payload of the right length. */
function readCachedData(file: string): Buffer | undefined {
  try {
    const stored = readFileSync(file);
    const data = stored.subarray(4);
    return data.length > 0 && crc32(data) === stored.readUInt32LE(0) ? data : undefined;
  } catch {
    return undefined;
  }
}

function saveLater(script: Script, file: string, name: string): void {
  const save = () => {
    clearTimeout(timer);
    process.off('exit', save);
    const tmp = `${file}.${process.pid}-${threadId}.tmp`;
    try {
      const data = script.createCachedData();
      mkdirSync(dirname(file), { recursive: true });
      const sum = Buffer.alloc(4);
      sum.writeUInt32LE(crc32(data));
      writeFileSync(tmp, Buffer.concat([sum, data]));
      renameSync(tmp, file);
      // One file per bundle: the data for an older build of it is of no more use.
      for (const old of readdirSync(dirname(file))) {
        if (old.startsWith(`${name}-`) && old.endsWith('.v8') && old !== basename(file))
          rmSync(join(dirname(file), old), { force: true });
      }
    } catch {
      rmSync(tmp, { force: true });
    }
  };
  const timer = setTimeout(save, SAVE_AFTER_MS);
  timer.unref();
  process.on('exit', save);
}
