/**
 * The suite's only way to the deployment: HTTPS (or HTTP) requests to the public API with the key, as any
 * client makes them. Every answer is kept as the step's last answer, so a failing step reports the
 * request and the response that failed it.
 */

export interface ApiAnswer<T = any> {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: T;
  text: string;
}

/** A step's expectation that did not hold, with the answer it judged (printed in the report). */
export class CheckFailed extends Error {
  constructor(
    message: string,
    readonly answer?: ApiAnswer,
  ) {
    super(message);
  }
}

/** API Gateway's integration timeout is 30 s: no answer takes longer on AWS (https://docs.aws.amazon.com/apigateway/latest/developerguide/limits.html). */
const REQUEST_TIMEOUT_MS = 35_000;

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Another key than the suite's (the wrong-key check). `null` sends none. */
  key?: string | null;
}

export class ApiClient {
  /** The last answer of the step running now (reset by the runner before each step). */
  last: ApiAnswer | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
  ) {}

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { 'user-agent': 'mailservice-test-deployed', ...options.headers };
    const key = options.key === undefined ? this.key : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const answer: ApiAnswer<T> = { method, path, status: response.status, headers: response.headers, body: parsed as T, text };
    this.last = answer;
    return answer;
  }

  /** A request that must answer `status` (or one of them); anything else fails the step with the answer. */
  async expect<T = any>(status: number | number[], method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer<T>> {
    const answer = await this.request<T>(method, path, options);
    const wanted = Array.isArray(status) ? status : [status];
    if (!wanted.includes(answer.status))
      throw new CheckFailed(`${method} ${path} answered ${answer.status}, expected ${wanted.join(' or ')}`, answer);
    return answer;
  }
}

/** Fails the step with `message` (and the last answer) unless `condition` holds. */
export function check(condition: unknown, message: string, answer?: ApiAnswer): asserts condition {
  if (!condition) throw new CheckFailed(message, answer);
}
