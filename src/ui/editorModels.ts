/**
 * The extension host's side of provider vscode-lm: the worker's model calls (app/protocol.ts EditorChat) are
 * sent to the editor's language models with `vscode.lm`, and their answers go back with token counts made by
 * the model's own tokenizer (the editor reports no usage). Before the run's first call each of its models is
 * matched to an editor model (by id, then family); one the editor does not offer is asked for with a picker per
 * step, and the choice is remembered for the workspace. The user's consent is the editor's to ask, on the first
 * request; a refusal goes back as such. A cancel from the worker, or the end of the run, stops the call.
 */
import * as vscode from 'vscode';
import type { Connection } from '../app/connection';
import { CancelEditorChat, EditorChat, ResolveEditorModels } from '../app/protocol';
import type {
  EditorChatAnswer,
  EditorChatParams,
  EditorMessage,
  EditorModelsAnswer,
  EditorModelsParams,
} from '../model/editorModels';

/** The workspace's choices: Skeptic's model name → the editor model's id. */
const CHOSEN = 'skeptic.editorModels';
const JUSTIFICATION = 'Skeptic sends the code under review to this model and gets review findings back.';
const NO_MODELS =
  'VS Code offers no language model here: sign in to GitHub Copilot or add a model provider, or choose another skeptic.provider';

export class EditorModelHost implements vscode.Disposable {
  /** The editor model found for each of the run's model names. */
  private readonly models = new Map<string, vscode.LanguageModelChat>();
  private readonly calls = new Map<string, vscode.CancellationTokenSource>();

  constructor(
    worker: Connection,
    private readonly memory: vscode.Memento,
  ) {
    worker.onRequest(ResolveEditorModels, (p) => this.resolve(p));
    worker.onRequest(EditorChat, (p) => this.chat(p));
    worker.onNotification(CancelEditorChat, ({ callId }) => this.calls.get(callId)?.cancel());
  }

  dispose(): void {
    for (const call of this.calls.values()) call.cancel();
  }

  private async resolve({ models }: EditorModelsParams): Promise<EditorModelsAnswer> {
    const all = await vscode.lm.selectChatModels();
    if (!all.length) return { kind: 'missing', message: NO_MODELS };
    const remembered = this.memory.get<Record<string, string>>(CHOSEN) ?? {};
    const found: Extract<EditorModelsAnswer, { kind: 'found' }>['models'] = [];
    for (const { name, uses } of models) {
      const model = matchModel(all, name, remembered[name]) ?? (await pickModel(all, name, uses));
      if (!model) return { kind: 'missing', message: `no editor model was chosen for ${uses.join(', ')}` };
      if (model.id !== remembered[name]) await this.memory.update(CHOSEN, { ...remembered, [name]: model.id });
      this.models.set(name, model);
      found.push({
        name,
        id: model.id,
        label: `${model.name} (${model.vendor})`,
        maxInputTokens: model.maxInputTokens,
      });
    }
    return { kind: 'found', models: found };
  }

  private async chat(p: EditorChatParams): Promise<EditorChatAnswer> {
    const model = this.models.get(p.model);
    if (!model) return { kind: 'refused', reason: 'not-found', message: `no editor model was resolved for ${p.model}` };
    const call = new vscode.CancellationTokenSource();
    this.calls.set(p.callId, call);
    try {
      const messages = p.messages.map(toChatMessage);
      const response = await model.sendRequest(
        messages,
        {
          justification: JUSTIFICATION,
          tools: p.tools,
          toolMode:
            p.toolMode === 'required'
              ? vscode.LanguageModelChatToolMode.Required
              : vscode.LanguageModelChatToolMode.Auto,
        },
        call.token,
      );
      const parts: Extract<EditorChatAnswer, { kind: 'reply' }>['parts'] = [];
      for await (const part of response.stream) {
        const last = parts.at(-1);
        if (part instanceof vscode.LanguageModelTextPart) {
          // The stream comes in pieces: one text part per run of text.
          if (last?.type === 'text') last.text += part.value;
          else parts.push({ type: 'text', text: part.value });
        } else if (part instanceof vscode.LanguageModelToolCallPart)
          parts.push({ type: 'toolCall', callId: part.callId, name: part.name, input: asRecord(part.input) });
      }
      const count = (what: string | vscode.LanguageModelChatMessage) => model.countTokens(what, call.token);
      const inputTokens = (await Promise.all(messages.map(count))).reduce((a, b) => a + b, 0);
      const said = parts.map((x) => (x.type === 'text' ? x.text : `${x.name} ${JSON.stringify(x.input)}`)).join('\n');
      return { kind: 'reply', model: model.id, parts, inputTokens, outputTokens: said ? await count(said) : 0 };
    } catch (err) {
      return refusal(err);
    } finally {
      this.calls.delete(p.callId);
      call.dispose();
    }
  }
}

/** The remembered choice, else the model whose id or family is the name, else one whose id or family contains it. */
function matchModel(
  all: readonly vscode.LanguageModelChat[],
  name: string,
  remembered: string | undefined,
): vscode.LanguageModelChat | undefined {
  const n = name.toLowerCase();
  return (
    all.find((m) => m.id === remembered) ??
    all.find((m) => m.id.toLowerCase() === n) ??
    all.find((m) => m.family.toLowerCase() === n) ??
    all.find((m) => m.id.toLowerCase().includes(n) || m.family.toLowerCase().includes(n))
  );
}

/** The model picker for the steps a name the editor does not offer was meant for. */
async function pickModel(
  all: readonly vscode.LanguageModelChat[],
  name: string,
  uses: string[],
): Promise<vscode.LanguageModelChat | undefined> {
  const picked = await vscode.window.showQuickPick(
    all.map((model) => ({
      label: model.name,
      description: `${model.vendor} · ${model.family}`,
      detail: `${model.maxInputTokens.toLocaleString('en-US')} input tokens`,
      model,
    })),
    {
      title: `Skeptic: the editor model for ${uses.join(', ')}`,
      placeHolder: `${name} is not among the editor's models; choose one (remembered for this workspace)`,
      ignoreFocusOut: true,
    },
  );
  return picked?.model;
}

function toChatMessage(m: EditorMessage): vscode.LanguageModelChatMessage {
  if (m.role === 'assistant')
    return vscode.LanguageModelChatMessage.Assistant(
      m.parts.flatMap((p): (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] =>
        p.type === 'text'
          ? [new vscode.LanguageModelTextPart(p.text)]
          : p.type === 'toolCall'
            ? [new vscode.LanguageModelToolCallPart(p.callId, p.name, p.input)]
            : [],
      ),
    );
  return vscode.LanguageModelChatMessage.User(
    m.parts.flatMap((p): (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[] =>
      p.type === 'text'
        ? [new vscode.LanguageModelTextPart(p.text)]
        : p.type === 'toolResult'
          ? [new vscode.LanguageModelToolResultPart(p.callId, [new vscode.LanguageModelTextPart(p.text)])]
          : [],
    ),
  );
}

function asRecord(input: object): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/** The editor's error, by its code, as the worker's client judges it (consent and a missing model stop the run). */
function refusal(err: unknown): EditorChatAnswer {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof vscode.LanguageModelError) {
    const reason =
      err.code === vscode.LanguageModelError.NoPermissions.name
        ? 'no-permissions'
        : err.code === vscode.LanguageModelError.Blocked.name
          ? 'blocked'
          : err.code === vscode.LanguageModelError.NotFound.name
            ? 'not-found'
            : 'failed';
    return { kind: 'refused', reason, message };
  }
  return { kind: 'refused', reason: 'failed', message };
}
