/**
 * A hash of a mode's prompt texts: part of every result-cache key of that mode (staged/promptVersion.ts,
 * lenses/promptVersion.ts), so a release that edits a prompt re-asks that mode's units instead of serving
 * answers given under the old wording, and leaves the other mode's answers alone.
 */
import { createHash } from 'node:crypto';

export function promptVersion(prompts: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(prompts)).digest('hex').slice(0, 16);
}
