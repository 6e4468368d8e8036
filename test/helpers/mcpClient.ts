/**
 * The MCP SDK's own client driving `skeptic mcp` (the built CLI) over stdio, as an agent would: a fresh user
 * cache per server, no provider setup of the machine's, and, when given, the client's roots.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, NO_PROVIDER_ENV } from './cli';

/** How long any one request to the server may take in a test. */
export const CALL_TIMEOUT_MS = 30_000;

export interface McpSession {
  client: Client;
  /** What the server wrote on stderr (it must never write to stdout but the protocol). */
  stderr: () => string;
  /** Calls a tool with a bounded wait; `onProgress` hears its progress lines. */
  call: (
    name: string,
    args: Record<string, unknown>,
    opts?: { signal?: AbortSignal; onProgress?: (message: string | undefined) => void },
  ) => Promise<CallToolResult>;
  close: () => Promise<void>;
}

export async function startMcp(opts: {
  cwd: string;
  env?: Record<string, string | undefined>;
  roots?: string[];
  /** The user cache (result cache, kept reviews); default a fresh one. */
  cacheHome?: string;
  /** How the server is started (default: node dist/cli.js mcp), looked up on the env's PATH. */
  command?: string;
  args?: string[];
}): Promise<McpSession> {
  const env = Object.fromEntries(
    Object.entries({
      ...process.env,
      ...NO_PROVIDER_ENV,
      XDG_CACHE_HOME: opts.cacheHome ?? mkdtempSync(join(tmpdir(), 'skeptic-user-cache-')),
      ...opts.env,
    }).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const client = new Client(
    { name: 'skeptic-test-agent', version: '1.0.0' },
    opts.roots ? { capabilities: { roots: { listChanged: false } } } : {},
  );
  if (opts.roots) {
    const roots = opts.roots.map((r) => ({ uri: pathToFileURL(r).href, name: basename(r) }));
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
  }
  const transport = new StdioClientTransport({
    command: opts.command ?? process.execPath,
    args: opts.args ?? [CLI, 'mcp'],
    cwd: opts.cwd,
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
  return {
    client,
    stderr: () => stderr,
    call: async (name, args, o = {}) =>
      (await client.callTool({ name, arguments: args }, undefined, {
        timeout: CALL_TIMEOUT_MS,
        ...(o.signal ? { signal: o.signal } : {}),
        ...(o.onProgress ? { onprogress: (p) => o.onProgress!(p.message) } : {}),
      })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a tool result's parts. */
export const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
