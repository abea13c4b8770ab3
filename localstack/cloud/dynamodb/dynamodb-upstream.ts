/**
 * What the proxies in front of DynamoDB Local (./dynamodb-commit-barrier.ts, ./dynamodb-partition-proxy.ts) do alike
 * with a request they forward: its body goes upstream, a client that goes away ends the upstream call, and an
 * upstream that cannot be reached is answered 502 with the body of DynamoDB's InternalServerError.
 */
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';

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
