/**
 * A browser's view of the dashboard's session doors for integration tests: requests with the session
 * cookie, the CSRF header and (on state-changing requests, as browsers send it) the dashboard's Origin,
 * from a loopback address of their own (127.x.y.z: the local gateway sees it as the client IP, so the
 * sign-in's per-IP limit counts each test's attempts apart), and dashboard users created through the use
 * case, as the admin CLI does.
 */
import { randomInt } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { DashboardUser } from '#shared/domain/dashboard/user';
import { createDashboardUser } from '#shared/usecases/dashboard/users';
import { checkApiResponse } from './contract';
import { stack, uniqueEmail, type TestAccount } from './stack';

export const DASHBOARD_PASSWORD = 'correct horse battery staple';

export interface DashboardResponse<T = any> {
  status: number;
  headers: IncomingHttpHeaders;
  /** Set-Cookie lines, as sent. */
  setCookies: string[];
  body: T;
  text: string;
}

export interface DashboardRequestOptions {
  /** The svc_session token (sent as the cookie). */
  cookie?: string;
  /** X-CSRF-Token. */
  csrf?: string;
  body?: unknown;
  /** A body sent as it is (with its own content-type header). */
  rawBody?: string;
  /** Origin on state-changing requests: the dashboard's own unless given (null: none). */
  origin?: string | null;
  headers?: Record<string, string>;
  /** Client address (a loopback address); a random 127.x.y.z unless given. */
  from?: string;
}

export const randomLoopback = (): string => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

export function dashboardRequest<T = any>(
  method: string,
  path: string,
  options: DashboardRequestOptions = {},
): Promise<DashboardResponse<T>> {
  const url = new URL(path, stack().apiUrl);
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie !== undefined) headers.cookie = `svc_session=${options.cookie}`;
  if (options.csrf !== undefined) headers['x-csrf-token'] = options.csrf;
  const safe = ['GET', 'HEAD', 'OPTIONS'].includes(method);
  const origin = options.origin === undefined ? (safe ? null : new URL(stack().apiUrl).origin) : options.origin;
  if (origin !== null) headers.origin = origin;
  let body = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, localAddress: options.from ?? randomLoopback() }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        const setCookie = res.headers['set-cookie'];
        checkApiResponse(method, url.href, {
          status: res.statusCode ?? 0,
          header: (name) => {
            const value = res.headers[name.toLowerCase()];
            return Array.isArray(value) ? value.join(', ') : (value ?? null);
          },
          text,
        });
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          setCookies: Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [],
          body: parsed as T,
          text,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The svc_session token a response set (undefined when it set none). */
export function sessionTokenOf(response: DashboardResponse): string | undefined {
  const line = response.setCookies.find((cookie) => cookie.startsWith('svc_session='));
  return line ? decodeURIComponent(line.slice('svc_session='.length).split(';')[0]!) : undefined;
}

/** A dashboard user of the account, created through the use case (as `admin user create` does). */
export async function newDashboardUser(
  account: TestAccount,
  password = DASHBOARD_PASSWORD,
): Promise<{ user: DashboardUser; email: string; password: string }> {
  const user = await createDashboardUser(stack().services, { accountId: account.id, email: uniqueEmail('dash'), password });
  return { user, email: user.email, password };
}

export interface SignedIn {
  cookie: string;
  csrf: string;
  response: DashboardResponse;
}

/** Signs in through POST /dashboard/sign-in; fails the test unless it answers 200 with a cookie. */
export async function signIn(email: string, password = DASHBOARD_PASSWORD, from?: string): Promise<SignedIn> {
  const response = await dashboardRequest('POST', '/dashboard/sign-in', { body: { email, password }, ...(from ? { from } : {}) });
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}: ${response.text}`);
  const cookie = sessionTokenOf(response);
  if (!cookie) throw new Error('sign-in set no svc_session cookie');
  return { cookie, csrf: response.body.csrf_token, response };
}
