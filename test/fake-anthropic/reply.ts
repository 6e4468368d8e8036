/** Decides what a parsed request gets back: an API error, a dropped connection, or a message's content. */
import { randomBytes } from 'node:crypto';
import { breakSchema, errorTypeOf, linesPastEnd, omitFunctions, ramble } from './faults';
import { buildRecord, primarySource } from './records';
import { inSchemaOrder } from './generic';
import type { ParsedRequest } from './request';
import type { Fault, LoadedScenario } from './scenario';

export type ContentBlock =
  { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

export type Outcome =
  | { kind: 'error'; status: number; type: string; message: string; retryAfter?: number }
  | { kind: 'drop' }
  | { kind: 'html' }
  | { kind: 'message'; content: ContentBlock[]; stopReason: 'end_turn' | 'tool_use' | 'refusal' | 'max_tokens' };

/** Prose around a cut-off object: what a model that ignored the output format might send. */
const NOT_JSON = 'Here is my review of the function:\n{"file_path": "';
/** Used by bad_line when the request carries no source block to measure. */
const UNKNOWN_LENGTH = 100_000;

/** What a refusing model says instead of the record. */
export const REFUSAL_TEXT = 'I cannot help with reviewing this code.';

/** `credentials` is what the request authenticated with, for the fault that echoes it. */
export function reply(req: ParsedRequest, scenario: LoadedScenario, fault: Fault | null, credentials = ''): Outcome {
  switch (fault?.kind) {
    case 'status':
      return {
        kind: 'error',
        status: fault.status,
        type: errorTypeOf(fault.status),
        message: `fake-anthropic: planted ${fault.status} fault`,
        retryAfter: fault.retry_after,
      };
    case 'drop':
      return { kind: 'drop' };
    case 'no_structured_output':
      if (req.schema && !req.submitTool)
        return {
          kind: 'error',
          status: 400,
          type: errorTypeOf(400),
          message: 'output_config.format: structured outputs are not supported for this model',
        };
      break;
    case 'invalid_json':
      return text(NOT_JSON);
    case 'tool_use':
      return {
        kind: 'message',
        content: [fault, ...fault.also].map((c) => toolUse(c.tool, c.input)),
        stopReason: 'tool_use',
      };
    case 'html':
      return { kind: 'html' };
    case 'refusal':
      return { kind: 'message', content: [{ type: 'text', text: REFUSAL_TEXT }], stopReason: 'refusal' };
    case 'echo_auth':
      return {
        kind: 'error',
        status: fault.status,
        type: errorTypeOf(fault.status),
        message: `fake-anthropic: rejected request with ${credentials}`,
      };
  }
  if (!req.schema)
    return text('fake-anthropic: this request asks for no record (no output schema, no forced submit tool).');
  let record = inSchemaOrder(buildRecord(req, scenario), req.schema);
  if (fault?.kind === 'schema_invalid') record = breakSchema(req.record, record);
  if (fault?.kind === 'omit_functions') record = omitFunctions(record, fault.functions, fault.invent);
  if (fault?.kind === 'verbose') record = ramble(record, fault.chars);
  if (fault?.kind === 'bad_line') {
    const lastLine =
      primarySource(req)?.lineCount ??
      (typeof req.packet.approx_line_count === 'number' ? req.packet.approx_line_count : UNKNOWN_LENGTH);
    record = linesPastEnd(record, lastLine);
  }
  return req.submitTool
    ? { kind: 'message', content: [toolUse(req.submitTool, record)], stopReason: 'tool_use' }
    : text(JSON.stringify(record));
}

function text(body: string): Outcome {
  return { kind: 'message', content: [{ type: 'text', text: body }], stopReason: 'end_turn' };
}

function toolUse(name: string, input: unknown): ContentBlock {
  return { type: 'tool_use', id: `toolu_fake_${randomBytes(8).toString('hex')}`, name, input };
}
