/**
 * The send context's shared items kept for a moment (HOT_LOOKUPS_CACHE_MS, shared/adapters/store/send-context-cache.ts)
 * on a local cloud of its own that keeps them as AWS does (the shared stack keeps nothing, as `npm start`):
 * a key revoked a moment after it sent still sends until the bound, and is refused (401) once it has passed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStackFile } from '#localstack/cloud/stack/stack-file';
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { serviceClock } from '#shared/adapters/clock';
import { AccountRepository } from '#shared/adapters/store/accounts';
import { ApiKeyRepository } from '#shared/adapters/store/api-keys';
import { loadConfig } from '#shared/config/config';
import { createAccount } from '#shared/usecases/access/accounts';
import { spawnStack, type SpawnedStack } from './harness/spawn-stack';

const SANDBOX = 'sandbox.mailservice.dev';
const TTL_MS = 3000;

describe('the send context cache (HOT_LOOKUPS_CACHE_MS)', () => {
  let running: SpawnedStack;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mailservice-send-cache-'));
    running = await spawnStack({ dataDir, inMemory: true, env: { HOT_LOOKUPS_CACHE_MS: String(TTL_MS) } });
  });
  afterAll(async () => {
    await running?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function call(method: string, path: string, key: string, body?: unknown) {
    const response = await fetch(running.apiUrl + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json().catch(() => undefined)) as any };
  }

  it('lets a revoked key send until the bound, then refuses it', async () => {
    const info = readStackFile(dataDir)!;
    const config = loadConfig({ ...process.env, ...info.env });
    // The SDK's credential chain reads the process's environment: the local cloud's credentials.
    process.env.AWS_ACCESS_KEY_ID ??= info.env.AWS_ACCESS_KEY_ID;
    process.env.AWS_SECRET_ACCESS_KEY ??= info.env.AWS_SECRET_ACCESS_KEY;
    const table = { client: createDynamoClient(config), name: config.tableName };
    const email = 'cache-owner@example.com';
    const { secret: owner } = await createAccount(
      { accounts: new AccountRepository(table), apiKeys: new ApiKeyRepository(table), clock: serviceClock },
      { email, plan: 'free', paymentMethod: false, tenants: false },
    );
    const created = await call('POST', '/api-keys', owner, { name: 'sender', scopes: ['emails:send'] });
    expect(created.status).toBe(201);
    const sender = created.body.secret as string;
    const send = () => call('POST', '/emails', sender, { from: `a@${SANDBOX}`, to: email, subject: 'cached', text: 't' });

    expect((await send()).status).toBe(200);
    const readAt = Date.now();
    expect((await call('DELETE', `/api-keys/${created.body.api_key.id}`, owner)).status).toBe(200);
    // Within the bound the key (and its account) come from what the last send read: the revocation is not seen yet.
    const stale = await send();
    expect(Date.now() - readAt).toBeLessThan(TTL_MS);
    expect(stale.status).toBe(200);
    // Past it, the next send reads the key again and is refused.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, readAt + TTL_MS + 100 - Date.now())));
    const refused = await send();
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe('Invalid API key.');
  }, 60_000);
});
