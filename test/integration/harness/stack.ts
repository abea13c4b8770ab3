/**
 * What integration tests use: the running stack's API (over HTTP, like any client), its emulators'
 * endpoints, and fixtures written through the service's own use cases against the real emulators.
 */
import { readStackFile, type StackInfo } from '../../../localstack/cloud/stack-file';
import { buildServices, type Services } from '../../../shared/services';
import { loadConfig } from '../../../shared/config';
import { createAccount, type CreateAccountInput } from '../../../shared/usecases/accounts';
import { randomUUID } from 'node:crypto';
import type { LocalSesMessage } from '../../../localstack/emulators/ses';

let cached: { info: StackInfo; services: Services } | undefined;

export function stack(): { info: StackInfo; apiUrl: string; services: Services } {
  if (!cached) {
    const dataDir = process.env.TEST_STACK_DATA_DIR;
    if (!dataDir) throw new Error('TEST_STACK_DATA_DIR is not set: run integration tests through jest (global setup)');
    const info = readStackFile(dataDir);
    if (!info) throw new Error(`no running stack in ${dataDir}`);
    Object.assign(process.env, info.env);
    cached = { info, services: buildServices(loadConfig(process.env)) };
  }
  return { ...cached, apiUrl: cached.info.api_url };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function api<T = any>(
  method: string,
  path: string,
  options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(stack().apiUrl + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export function uniqueEmail(local = 'owner'): string {
  return `${local}+${randomUUID().slice(0, 8)}@example.com`;
}

export interface TestAccount {
  id: string;
  email: string;
  key: string;
}

/** A fresh account with a full-access key, written through the createAccount use case. */
export async function newAccount(input: Partial<CreateAccountInput> = {}): Promise<TestAccount> {
  const { services } = stack();
  const email = input.email ?? uniqueEmail();
  const { account, secret } = await createAccount(services, {
    email,
    plan: input.plan ?? 'free',
    paymentMethod: input.paymentMethod ?? false,
    tenants: input.tenants ?? false,
  });
  return { id: account.id, email: account.email, key: secret };
}

export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 15_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
}


/** GET /emails/{id} as the account; fails the test on anything but 200. */
export async function emailOf(account: TestAccount, id: string) {
  const response = await api('GET', `/emails/${id}`, { key: account.key });
  expect(response.status).toBe(200);
  return response.body.email;
}

export async function waitForStatus(account: TestAccount, id: string, status: string, timeoutMs?: number) {
  return waitFor(async () => {
    const email = await emailOf(account, id);
    return email.status === status ? email : undefined;
  }, `email ${id} to be ${status}`, timeoutMs);
}

export async function sesMessages(): Promise<LocalSesMessage[]> {
  const response = await api<{ messages: LocalSesMessage[] }>('GET', '/_local/ses/messages');
  return response.body.messages;
}

export async function sesMessagesFor(emailId: string): Promise<LocalSesMessage[]> {
  return (await sesMessages()).filter((message) => message.tags.email_id === emailId);
}
