/**
 * What integration tests use: the running stack's API (over HTTP, like any client), its emulators'
 * endpoints, and fixtures written through the service's own use cases against the real emulators.
 */
import { readStackFile, type StackInfo } from '#localstack/cloud/stack/stack-file';
import type { Services } from '#shared/services';
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { serviceClock } from '#shared/adapters/clock';
import { loadConfig } from '#shared/config/config';
import { AccountRepository } from '#shared/adapters/store/accounts';
import { ApiKeyRepository } from '#shared/adapters/store/api-keys';
import { createAccount, type AccountDeps, type CreateAccountInput } from '#shared/usecases/access/accounts';
import { randomUUID } from 'node:crypto';
import type { LocalSesMessage, LocalSesMessageSummary } from '#localstack/emulators/ses';
import { waitFor } from '../../support/wait';

let cached: { info: StackInfo; services?: Services; accounts?: AccountDeps } | undefined;

/**
 * The running stack: its stack file, API URL and the service's own services. The services are built on
 * first use: their modules (every AWS client) cost each test file about 0.4 s of CPU to load, and most
 * files only call the API and make accounts.
 */
export function stack(): { info: StackInfo; apiUrl: string; services: Services } {
  if (!cached) {
    const dataDir = process.env.TEST_STACK_DATA_DIR;
    if (!dataDir) throw new Error('TEST_STACK_DATA_DIR is not set: run integration tests through jest (global setup)');
    const info = readStackFile(dataDir);
    if (!info) throw new Error(`no running stack in ${dataDir}`);
    Object.assign(process.env, info.env);
    cached = { info };
  }
  const current = cached;
  return {
    info: current.info,
    apiUrl: current.info.api_url,
    get services(): Services {
      current.services ??= (require('#shared/services') as typeof import('#shared/services')).buildServices(loadConfig(process.env));
      return current.services;
    },
  };
}

/** What createAccount needs (the accounts and keys of the table): a fixture without loading every service. */
function accountDeps(): AccountDeps {
  stack();
  cached!.accounts ??= (() => {
    const config = loadConfig(process.env);
    const table = { client: createDynamoClient(config), name: config.tableName };
    return { accounts: new AccountRepository(table), apiKeys: new ApiKeyRepository(table), clock: serviceClock };
  })();
  return cached!.accounts;
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
  let parsed: unknown;
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
  const email = input.email ?? uniqueEmail();
  const { account, secret } = await createAccount(accountDeps(), {
    email,
    plan: input.plan ?? 'free',
    paymentMethod: input.paymentMethod ?? false,
    tenants: input.tenants ?? false,
  });
  return { id: account.id, email: account.email, key: secret };
}

/** Polls until the probe holds; a timeout names what it waited for and the probe's last error or answer (test/support/wait.ts). */
export { waitFor } from '../../support/wait';

/** GET /emails/{id} as the account; fails the test on anything but 200. */
export async function emailOf(account: TestAccount, id: string) {
  const response = await api('GET', `/emails/${id}`, { key: account.key });
  expect(response.status).toBe(200);
  return response.body.email;
}

/**
 * Waits for an email to reach `status`. 30 s by default: the send queue is shared by every file running
 * at the same time, and one that sends a few hundred emails delays the others' by seconds.
 */
export async function waitForStatus(account: TestAccount, id: string, status: string, timeoutMs = 30_000) {
  // A timeout's message ends with the stored item and the send queue's depth (./email-diagnosis.ts).
  const { diagnosed } = await import('./email-diagnosis');
  return diagnosed(
    id,
    waitFor(
      async () => {
        const email = await emailOf(account, id);
        // Thrown, not returned: a timeout then says where the email stood.
        if (email.status !== status) throw new Error(`email ${id} is ${email.status} (last_event ${email.last_event ?? 'none'})`);
        return email;
      },
      `email ${id} to be ${status}`,
      timeoutMs,
    ),
  );
}

/** Filters of the local mailbox, applied by the local cloud (`GET /_local/ses/messages`, docs/local-cloud/ses.md). */
export interface SesMessageFilter {
  /** The service's email id (the message's `email_id` tag). */
  email_id?: string;
  /** A recipient, case-insensitive. */
  to?: string;
  /** `name:value` (or `name` for any value); every one given must match. */
  tag?: string | string[];
  tenant_name?: string;
  subject?: string;
  /** Received at or after. */
  since?: string | Date;
  /** The newest `limit` matches. */
  limit?: number;
  /** With each message's bytes (`raw`, `raw_base64`); without by default. */
  raw?: boolean;
}

function mailboxQuery(filter: SesMessageFilter): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) {
    if (value === undefined || value === false) continue;
    if (name === 'raw') params.set('raw', '1');
    else if (Array.isArray(value)) for (const one of value) params.append(name, String(one));
    else params.set(name, value instanceof Date ? value.toISOString() : String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * The local SES mailbox's messages matching `filter`, newest first, filtered by the local cloud (a test
 * never downloads other tests' messages); their bytes only with `raw: true`.
 */
export async function sesMessages(filter: SesMessageFilter & { raw: true }): Promise<LocalSesMessage[]>;
export async function sesMessages(filter?: SesMessageFilter): Promise<LocalSesMessageSummary[]>;
export async function sesMessages(filter: SesMessageFilter = {}): Promise<LocalSesMessageSummary[]> {
  const response = await api<{ messages: LocalSesMessageSummary[] }>('GET', `/_local/ses/messages${mailboxQuery(filter)}`);
  if (response.status !== 200) throw new Error(`GET /_local/ses/messages answered ${response.status}: ${response.text}`);
  return response.body.messages;
}

/** The messages SES received for one email (its `email_id` tag), with their bytes unless `raw: false`. */
export async function sesMessagesFor(emailId: string, options?: { raw?: true }): Promise<LocalSesMessage[]>;
export async function sesMessagesFor(emailId: string, options: { raw: false }): Promise<LocalSesMessageSummary[]>;
export async function sesMessagesFor(emailId: string, options: { raw?: boolean } = {}): Promise<LocalSesMessageSummary[]> {
  return sesMessages({ email_id: emailId, raw: options.raw ?? true });
}
