/**
 * The fuzzer's HTTP client: node:http rather than fetch, so a request goes out exactly as built (a path
 * that fetch would normalise, a body that is not JSON, bytes that are not UTF-8, any content-type), over
 * a small keep-alive pool. A connection reset or a timeout is an answer too (status 0), which the
 * fuzzer counts as a finding.
 */
import { Agent, request, type ClientRequest } from 'node:http';

export interface FuzzRequest {
  method: string;
  /** Path and query, sent as they are (already percent-encoded where they need to be). */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What the request tries, for reports: `body.metadata <- nested 200 deep`. */
  label: string;
}

export interface FuzzAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Set when no HTTP answer came (reset, timeout). */
  error?: string;
  ms: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

export function closeFuzzClient(): void {
  agent.destroy();
}

export function send(baseUrl: string, fuzz: FuzzRequest, timeoutMs = 30_000): Promise<FuzzAnswer> {
  const url = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Omit<FuzzAnswer, 'ms'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...answer, ms: Date.now() - started });
    };
    const headers: Record<string, string | number> = { ...fuzz.headers };
    if (fuzz.body !== undefined) headers['content-length'] = Buffer.byteLength(fuzz.body);
    let req: ClientRequest;
    try {
      req = request({ agent, host: url.hostname, port: url.port, method: fuzz.method, path: fuzz.path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => finish({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (error) => finish({ status: 0, headers: {}, text: '', error: `response: ${error.message}` }));
      });
    } catch (error) {
      // node:http refuses to send some requests at all (a path with a space): not the server's answer.
      finish({ status: -1, headers: {}, text: '', error: `not sent: ${(error as Error).message}` });
      return;
    }
    req.setTimeout(timeoutMs, () => {
      finish({ status: 0, headers: {}, text: '', error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    });
    req.on('error', (error) => finish({ status: 0, headers: {}, text: '', error: `request: ${error.message}` }));
    req.end(fuzz.body);
  });
}

/** A header of an answer as one string (first value), for the contract checker. */
export function headerOf(answer: FuzzAnswer, name: string): string | null {
  const value = answer.headers[name.toLowerCase()];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}
