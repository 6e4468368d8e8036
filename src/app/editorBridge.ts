/**
 * The worker's side of the editor's language models: each call the engine makes (engine/providers/vscodeLm.ts)
 * becomes a request to the extension host over the typed connection, and an abort of its signal tells the host
 * to stop that call, not only to stop waiting for it.
 */
import type { Connection } from './connection';
import type { EditorModels } from '../model/editorModels';
import { CancelEditorChat, EditorChat, ResolveEditorModels } from './protocol';

export function editorModelsOver(host: Connection, runSignal: AbortSignal): EditorModels {
  return {
    resolve: (params) => host.sendRequest(ResolveEditorModels, params, runSignal),
    chat: async (params, signal) => {
      const cancel = () => host.sendNotification(CancelEditorChat, { callId: params.callId });
      signal.addEventListener('abort', cancel, { once: true });
      try {
        return await host.sendRequest(EditorChat, params, signal);
      } finally {
        signal.removeEventListener('abort', cancel);
      }
    },
  };
}
