/**
 * What the editor offers after a run that stopped early, decided on the stop's kind and HTTP status (never on
 * its words): another key for a refused key, the setup check for any other refusal or setup problem, the
 * message alone for a limit or a failure; nothing after a cancel. No vscode import: tested in plain mocha.
 */
import type { Stop } from '../model/outcome';

export type StopAction = 'none' | 'setKey' | 'checkSetup' | 'error';

/** `needsKey`: the provider takes an Anthropic key, which Skeptic: Set API Key replaces. */
export function stopAction(stop: Stop | undefined, { needsKey }: { needsKey: boolean }): StopAction {
  if (!stop || stop.kind === 'cancelled') return 'none';
  if (stop.kind === 'refused' && (stop.status === 401 || stop.status === 403) && needsKey) return 'setKey';
  if (stop.kind === 'refused' || stop.kind === 'setup') return 'checkSetup';
  return 'error';
}
