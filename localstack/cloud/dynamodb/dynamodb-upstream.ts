/**
 * What the proxies in front of DynamoDB Local (./dynamodb-commit-barrier.ts, ./dynamodb-partition-proxy.ts) do alike:
 * a server on `host:port` with a keep-alive agent to DynamoDB Local, stopped with its connections; and, for each
 * request they forward, its body goes upstream, a client that goes away ends the upstream call, and an upstream
 * that cannot be reached is answered 502 with the body of DynamoDB's InternalServerError.
 */
import http, { type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxyServer {
  port: number;
  stop(): Promise<void>;
}

/** Listens on `host:port` (0: a free one); `forward` gets each request with the proxy's agent to DynamoDB Local. */
export async function startProxyServer(
  host: string,
  port: number,
  forward: (request: IncomingMessage, response: ServerResponse, agent: http.Agent) => void,
): Promise<ProxyServer> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((request, response) => forward(request, response, agent));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

export function sendUpstream(request: IncomingMessage, response: ServerResponse, call: ClientRequest): void {
  call.on('error', (error) => {
    if (response.headersSent) return response.destroy(error);
    response.writeHead(502, { 'content-type': 'application/x-amz-json-1.0' });
    response.end(
      JSON.stringify({
        __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
        message: `DynamoDB Local unreachable: ${error.message}`,
      }),
    );
  });
  request.on('aborted', () => call.destroy());
  request.pipe(call);
}
