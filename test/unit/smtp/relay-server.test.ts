/**
 * The relay server with in-memory fakes behind the send core's ports: what the wiring itself decides
 * (the memory budget for messages in flight, recording a credential's use at most once a minute, replies
 * written with their own enhanced status codes). The full conversation runs against the local cloud in
 * test/integration/smtp-*.test.ts.
 */
import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import { writeLocalCa } from '#localstack/cloud/tls/local-tls';
import type { Account } from '#shared/domain/accounts/account';
import { hashSecret } from '#shared/domain/api-keys/secret';
import { generateSmtpPassword } from '#shared/domain/smtp-credentials/secret';
import { createRelayServer, type RelayDeps, type RelayServer } from '#shared/doors/smtp/relay-server';
import type { ApiKeyLookup } from '#shared/adapters/store/api-keys';
import { SendContextLoader, type SendContextLoaderPorts } from '#shared/usecases/send/send-context-loader';
import { temporaryDir } from '../../support/temporary-dirs';

process.env.LOG_LEVEL = 'silent';

const SANDBOX = 'sandbox.test';
const password = generateSmtpPassword();
const account: Account = {
  id: 'acc_1',
  email: 'me@example.com',
  plan: 'free',
  payment_method: false,
  tenants_enabled: false,
  created_at: '',
  updated_at: '',
};
const key: ApiKeyLookup = {
  kind: 'smtp',
  key_id: 'key_1',
  account_id: account.id,
  scopes: ['emails:send'],
  tenant: null,
  allowed_domains: null,
};
const lookup = (hash: string) => (hash === hashSecret(password) ? key : null);

function fakeDeps(touches: string[]): RelayDeps {
  const apiKeys = {
    findByHash: async (hash: string) => lookup(hash),
    findWithAccount: async (hash: string) => ({ key: lookup(hash), account }),
  };
  const sendContextLoader = new SendContextLoader({
    apiKeys,
    sendContext: {
      read: async (query: { apiKeyHash?: string }) => ({
        key: query.apiKeyHash ? lookup(query.apiKeyHash) : null,
        account,
        domain: null,
        suppressed: [],
        optedOut: [],
        idempotency: null,
        tenants: [],
        tenantAliases: [],
      }),
    },
    domains: { get: async () => null },
    sandboxDomain: SANDBOX,
  } as unknown as SendContextLoaderPorts);
  return {
    apiKeys,
    accounts: { get: async () => account },
    sendContextLoader,
    keyAccounts: sendContextLoader.keyAccounts,
    suppressions: { get: async () => null },
    clock: { now: () => new Date() },
    sandboxDomain: SANDBOX,
    smtpCredentials: {
      touchLastUsed: async (_account: string, credential: string, at: string) => void touches.push(`${credential}@${at}`),
    },
    // No failure reaches the limit here (the shared counters: test/integration/smtp-auth-throttle.test.ts).
    smtpAuthFailures: { counts: async (subjects: string[]) => subjects.map(() => 0), add: async () => 1 },
  } as unknown as RelayDeps;
}

describe('the relay server', () => {
  let relay: RelayServer;
  let port: number;
  let ca: Buffer;
  const touches: string[] = [];

  beforeAll(async () => {
    const files = await writeLocalCa(temporaryDir('relay-unit-'), { commonName: 'relay unit CA', validDays: 1 });
    ca = readFileSync(files.caFile);
    relay = createRelayServer(
      { tls: { key: readFileSync(files.keyFile), cert: readFileSync(files.certFile) }, maxBufferedBytes: 4096, closeTimeoutMs: 500 },
      fakeDeps(touches),
    );
    port = await relay.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await relay.close();
  });

  const send = (text: string) =>
    nodemailer
      .createTransport({
        host: '127.0.0.1',
        port,
        secure: false,
        requireTLS: true,
        auth: { user: 'mailservice', pass: password },
        tls: { ca, servername: 'localhost' },
      })
      .sendMail({ from: `a@${SANDBOX}`, to: account.email, subject: 'x', text });

  it('answers a message beyond the memory budget 451 4.3.1 (try again), and records the credential use once a minute', async () => {
    const error = await send('x'.repeat(10_000)).catch((e: { responseCode?: number; response?: string }) => e);
    expect(error).toMatchObject({ responseCode: 451, response: expect.stringMatching(/^451 4\.3\.1 The relay is busy/) });
    await send('y'.repeat(10_000)).catch(() => undefined);
    expect(touches).toHaveLength(1);
    expect(touches[0]).toMatch(/^key_1@\d{4}-/);
    // The budget was given back: a small message gets through to the send core, whose store is missing
    // here (a 503 of the send core: 451 4.3.0, try again).
    const small = await send('z').catch((e: { responseCode?: number; response?: string }) => e);
    expect(small).toMatchObject({ responseCode: 451, response: expect.stringMatching(/^451 4\.3\.0 The email could not be stored/) });
  });

  it('refuses a wrong password with the enhanced code of the mapping (535 5.7.8)', async () => {
    const error = await nodemailer
      .createTransport({
        host: '127.0.0.1',
        port,
        secure: false,
        requireTLS: true,
        auth: { user: 'mailservice', pass: generateSmtpPassword() },
        tls: { ca, servername: 'localhost' },
      })
      .sendMail({ from: `a@${SANDBOX}`, to: account.email, subject: 'x', text: 'x' })
      .catch((e: { responseCode?: number; response?: string }) => e);
    expect(error).toMatchObject({ responseCode: 535, response: '535 5.7.8 Invalid SMTP credential.' });
  });
});
