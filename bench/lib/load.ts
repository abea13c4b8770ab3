/**
 * A closed-loop load generator: `concurrency` workers each issue one operation, wait for it, and issue
 * the next, until the phase's duration is over. Every operation's latency and outcome is recorded.
 * Plus a minimal keep-alive HTTP/1.1 client on node:http (cheaper per request than fetch, so the load
 * generator takes as little CPU as possible from the two cores it shares with the stack).
 */
import http from 'node:http';

export interface Outcome {
  ok: boolean;
  /** What happened, for the error summary: "200", "429 plan_limit", "ECONNRESET", ... */
  label: string;
  /** The server's own time for the request (`Server-Timing: handler;dur=<ms>`), when it said. */
  serverMs?: number;
}

export interface PhaseResult {
  concurrency: number;
  /** Wall time from the first request to the last response (ms). */
  elapsedMs: number;
  latencies: number[];
  /** Server-side durations (Server-Timing), for the requests whose answer carried one. */
  serverLatencies: number[];
  ok: number;
  errors: number;
  outcomes: Record<string, number>;
}

/** Closed loop for `durationMs`: each of `concurrency` workers issues one operation, waits for it, issues the next. */
export function closedLoop(
  concurrency: number,
  durationMs: number,
  operation: (sequence: number) => Promise<Outcome>,
): Promise<PhaseResult> {
  const deadline = performance.now() + durationMs;
  return workerLoop(concurrency, () => performance.now() < deadline, operation);
}

/** Closed loop for exactly `count` operations. */
export function countedLoop(concurrency: number, count: number, operation: (sequence: number) => Promise<Outcome>): Promise<PhaseResult> {
  return workerLoop(concurrency, (sequence) => sequence < count, operation);
}

/** `concurrency` workers issuing operations (numbered from 0) while `more(next sequence)` holds. */
async function workerLoop(
  concurrency: number,
  more: (sequence: number) => boolean,
  operation: (sequence: number) => Promise<Outcome>,
): Promise<PhaseResult> {
  const latencies: number[] = [];
  const serverLatencies: number[] = [];
  const outcomes: Record<string, number> = {};
  let ok = 0;
  let errors = 0;
  let sequence = 0;
  const started = performance.now();
  const worker = async () => {
    while (more(sequence)) {
      const t0 = performance.now();
      let outcome: Outcome;
      try {
        outcome = await operation(sequence++);
      } catch (error) {
        const err = error as Error & { code?: string };
        outcome = { ok: false, label: err.code ?? err.name ?? 'Error' };
      }
      latencies.push(performance.now() - t0);
      if (outcome.serverMs !== undefined) serverLatencies.push(outcome.serverMs);
      outcomes[outcome.label] = (outcomes[outcome.label] ?? 0) + 1;
      if (outcome.ok) ok++;
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { concurrency, elapsedMs: performance.now() - started, latencies, serverLatencies, ok, errors, outcomes };
}

export interface HttpResponse {
  status: number;
  text: string;
  headers: http.IncomingHttpHeaders;
}

/** The `handler` metric of a Server-Timing header (`handler;dur=12.3`), in ms, or undefined. */
export function serverTimingMs(headers: http.IncomingHttpHeaders, metric = 'handler'): number | undefined {
  const raw = headers['server-timing'];
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!value) return undefined;
  for (const entry of value.split(',')) {
    const [name, ...params] = entry.trim().split(';');
    if (name?.trim() !== metric) continue;
    for (const param of params) {
      const match = /^\s*dur\s*=\s*"?([0-9.]+)"?\s*$/.exec(param);
      if (match) return Number(match[1]);
    }
  }
  return undefined;
}

export class HttpClient {
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(baseUrl: string, maxSockets: number) {
    this.base = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  request(method: string, path: string, headers: Record<string, string>, body?: string): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
      const req = http.request(
        {
          agent: this.agent,
          hostname: this.base.hostname,
          port: this.base.port,
          path,
          method,
          headers: payload ? { ...headers, 'content-length': String(payload.length) } : headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
          res.on('error', reject);
        },
      );
      req.setTimeout(30_000, () => req.destroy(Object.assign(new Error('request timed out'), { code: 'TIMEOUT' })));
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
