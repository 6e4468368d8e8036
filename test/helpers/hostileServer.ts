/** Loopback servers that misbehave on purpose, or stand between the CLI and a fake to change what it says. */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export interface HostileServer {
  url: string;
  close: () => Promise<void>;
}

/** A loopback server that answers once it has the whole request; every open response is ended when it closes. */
export async function hostile(handler: Handler): Promise<HostileServer> {
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => handler(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      return new Promise((done) => server.close(() => done()));
    },
  };
}

/** Sends the request on to `target` (a URL on the fake) as it came, and hands its answer to `answered`. */
export function forward(
  req: IncomingMessage,
  body: Buffer,
  target: URL,
  answered: (answer: IncomingMessage) => void,
): void {
  request(target, { method: req.method, headers: req.headers }, answered).end(body);
}

/** The answer passed through unchanged. */
export function relay(res: ServerResponse): (answer: IncomingMessage) => void {
  return (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  };
}
