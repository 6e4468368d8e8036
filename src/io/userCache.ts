/** The platform's per-user cache folder, under which Skeptic keeps its state and its code cache. */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** XDG_CACHE_HOME first (as on Linux), then the platform's own place. */
export function userCacheRoot(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.XDG_CACHE_HOME) return env.XDG_CACHE_HOME;
  if (platform === 'win32' && env.LOCALAPPDATA) return env.LOCALAPPDATA;
  return platform === 'darwin' ? join(homedir(), 'Library', 'Caches') : join(homedir(), '.cache');
}
