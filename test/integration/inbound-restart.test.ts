/**
 * Nothing accepted is lost: messages answered 250 by the MX listener while the inbound worker is not
 * running (LOCAL_HOLD_WORKERS: they wait in the queue, as after a crash right after the 250) survive a
 * SIGKILL of the whole stack, and are recorded with the ids of their 250 once the stack restarts on the
 * same data. The stored raw message is the one sent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnStack, type SpawnedStack } from './harness/spawn-stack';

describe('inbound mail across a crash between the 250 and processing (stack of its own, on disk)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailservice-inbound-restart-'));
  let own: SpawnedStack | undefined;
  let harness: typeof import('./harness/stack');
  let inbound: typeof import('./harness/inbound');

  beforeAll(async () => {
    own = await spawnStack({ dataDir, inMemory: false, detached: true, timeoutMs: 90_000, env: { LOCAL_HOLD_WORKERS: 'inbound-email' } });
    process.env.TEST_STACK_DATA_DIR = dataDir;
    harness = await import('./harness/stack');
    inbound = await import('./harness/inbound');
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('records every message answered 250 after the stack is killed and restarted', async () => {
    const account = await harness.newAccount({ plan: 'scale', paymentMethod: true });
    const domain = await inbound.receivingDomain(account);
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const info = await inbound
        .mxTransport()
        .sendMail({ from: 'sender@example.org', to: domain.address(`crash${n}`), subject: `before the crash ${n}`, text: `message ${n}` });
      expect(info.response).toMatch(/^250 /);
      ids.push(...inbound.receivedIds(info.response));
    }
    // Held: nothing processed yet.
    for (const id of ids) expect((await harness.api('GET', `/received-emails/${id}`, { key: account.key })).status).toBe(404);

    await own!.killGroup();
    own = await spawnStack({ dataDir, inMemory: false, detached: true, timeoutMs: 90_000 });

    for (const [n, id] of ids.entries()) {
      const email = await harness.waitFor(
        async () => {
          const response = await fetch(`${own!.apiUrl}/received-emails/${id}`, { headers: { authorization: `Bearer ${account.key}` } });
          return response.status === 200 ? ((await response.json()) as { received_email: Record<string, any> }).received_email : undefined;
        },
        `received email ${id} after the restart`,
        30_000,
        200,
      );
      expect(email).toMatchObject({ id, subject: `before the crash ${n + 1}`, rcpt_to: [domain.address(`crash${n + 1}`)] });
      expect(email.text.trim()).toBe(`message ${n + 1}`);
      const raw = await (await fetch(email.raw.download_url)).text();
      expect(raw).toContain(`Subject: before the crash ${n + 1}`);
    }
  }, 180_000);
});
