/**
 * DELETE /tenants/{tenant} racing real requests that attach something to the tenant, against the local
 * cloud: webhook endpoints created with the tenant in their filter, and scheduled sends for the tenant.
 * Whatever the interleaving, each request either commits before the deletion began (and the deletion
 * undoes it: the endpoint leaves the filter, the email is cancelled) or is refused with 404; so a new
 * tenant that takes the external_id inherits no filter, and no scheduled email of the deleted tenant is
 * left to fail when it fires. Also: DELETE cancels the tenant's scheduled emails (and only those).
 */
import { api, emailOf, newAccount, stack, type TestAccount } from './harness/stack';
import { createTenant, unique } from './harness/tenants';

const SANDBOX = 'sandbox.mailservice.dev';
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const hookUrl = () => `${stack().info.webhook_inbox_url}race-${unique('h')}`;

function scheduleFor(account: TestAccount, tenant: string | null, extra: Record<string, unknown> = {}) {
  return api('POST', '/emails', {
    key: account.key,
    body: {
      from: `a@${SANDBOX}`,
      to: account.email,
      subject: 'later',
      text: 't',
      scheduled_at: inAnHour(),
      ...(tenant ? { tenant } : {}),
      ...extra,
    },
  });
}

/**
 * A send stores a large body (over 64 KiB: in the mail bucket) between reading its tenant and writing the
 * email: with 2 MB the DELETE has time to run in between, which is the interleaving that matters.
 */
const LARGE = { html: `<p>${'report '.repeat(300_000)}</p>` };

/**
 * Runs `requests` started `spacingMs` apart while the tenant is deleted (the DELETE starts halfway: the
 * first ones finish before it, the last ones start after it began, those between race it); answers the
 * DELETE's status and theirs.
 */
async function raceWithDeletion<T>(
  account: TestAccount,
  externalId: string,
  requests: number,
  spacingMs: number,
  request: () => Promise<T>,
): Promise<{ deleted: number; answers: T[] }> {
  const started = Array.from({ length: requests }, (_, i) => pause(i * spacingMs).then(request));
  const deletion = pause(Math.floor((requests * spacingMs) / 2)).then(() => api('DELETE', `/tenants/${externalId}`, { key: account.key }));
  const [deleted, ...answers] = await Promise.all([deletion, ...started]);
  return { deleted: deleted.status, answers };
}

/**
 * One request, and how long it took on this machine now: a race spaces its requests half of that apart,
 * so that the first ones finish before the DELETE and the last ones start after it, whatever the load.
 */
async function timed<T>(request: () => Promise<T>): Promise<{ answer: T; took: number }> {
  const before = Date.now();
  const answer = await request();
  return { answer, took: Date.now() - before };
}

/**
 * Tenants an endpoint's filter names besides the one being deleted, listed after it: a request resolves
 * each named tenant in turn before it writes, so the deleted tenant is read (live) long before the write,
 * and the DELETE has time to run in between, which is the interleaving that matters.
 */
async function bystanders(account: TestAccount, count: number): Promise<string[]> {
  const names: string[] = [];
  while (names.length < count)
    names.push(
      ...(await Promise.all(Array.from({ length: Math.min(8, count - names.length) }, () => createTenant(account, {}, 'by')))).map(
        (t) => t.external_id,
      ),
    );
  return names;
}

/** These tests make tens of tenants and race rounds of requests: generous on a loaded machine. */
const RACE_TEST_MS = 180_000;

describe('tenant deletion racing attachments', () => {
  it(
    'a webhook created during the deletion keeps no deleted tenant in its filter, and a new tenant with the same external_id inherits nothing',
    async () => {
      const account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
      const others = await bystanders(account, 40);
      const externalId = unique('race');
      let created = 0;
      let refused = 0;
      // Rounds (the same external_id each time) until both outcomes happened: the race was real.
      const createHook = () =>
        api('POST', '/webhooks', {
          key: account.key,
          body: { url: hookUrl(), events: ['email.delivered'], tenants: [externalId, ...others] },
        });
      for (let round = 0; round < 4 && (created === 0 || refused === 0); round++) {
        await createTenant(account, { external_id: externalId });
        const { answer: probe, took } = await timed(createHook);
        expect(probe.status).toBe(200);
        expect((await api('DELETE', `/webhooks/${probe.body.webhook.id}`, { key: account.key })).status).toBe(200);
        const { deleted, answers } = await raceWithDeletion(account, externalId, 6, Math.ceil(took / 2), createHook);
        expect(deleted).toBe(200);
        for (const answer of answers) {
          expect([200, 404]).toContain(answer.status);
          if (answer.status === 404) {
            refused++;
            expect(answer.body.error.code).toBe('not_found');
            continue;
          }
          created++;
          // Created in time: the deletion took the tenant out of its filter; the others stay.
          const view = (await api('GET', `/webhooks/${answer.body.webhook.id}`, { key: account.key })).body.webhook;
          expect({ id: view.id, tenants: view.tenants, enabled: view.enabled }).toEqual({ id: view.id, tenants: others, enabled: true });
          expect((await api('DELETE', `/webhooks/${view.id}`, { key: account.key })).status).toBe(200);
        }
      }
      expect({ created: created > 0, refused: refused > 0 }).toEqual({ created: true, refused: true });

      // A new tenant takes the external_id: no endpoint of the account names it.
      const fresh = await createTenant(account, { external_id: externalId });
      expect(fresh.external_id).toBe(externalId);
      const endpoints = (await api('GET', '/webhooks?limit=100', { key: account.key })).body.webhooks as { tenants?: string[] }[];
      expect(endpoints.filter((endpoint) => endpoint.tenants?.includes(externalId))).toEqual([]);
    },
    RACE_TEST_MS,
  );

  it(
    'a webhook changed to name the tenant during the deletion keeps no deleted tenant either',
    async () => {
      const account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
      const others = await bystanders(account, 40);
      const hooks: string[] = [];
      for (let i = 0; i < 8; i++)
        hooks.push((await api('POST', '/webhooks', { key: account.key, body: { url: hookUrl(), tenants: others } })).body.webhook.id);
      let updated = 0;
      let refused = 0;
      // Rounds (the same endpoints, each round with a tenant of its own) until both outcomes happened: the race was real.
      for (let round = 0; round < 4 && (updated === 0 || refused === 0); round++) {
        const tenant = await createTenant(account, {}, 'patched');
        const nameTenant = (id: string) =>
          api('PATCH', `/webhooks/${id}`, { key: account.key, body: { tenants: [tenant.external_id, ...others] } });
        // The first endpoint names it before the DELETE (timed); the others race it.
        const { answer: probe, took } = await timed(() => nameTenant(hooks[0]!));
        expect(probe.status).toBe(200);
        let next = 1;
        const { deleted, answers } = await raceWithDeletion(account, tenant.external_id, hooks.length - 1, Math.ceil(took / 2), () =>
          nameTenant(hooks[next++]!),
        );
        expect(deleted).toBe(200);
        for (const answer of answers) {
          expect([200, 404]).toContain(answer.status);
          if (answer.status === 200) updated++;
          else {
            refused++;
            expect(answer.body.error.code).toBe('not_found');
          }
        }
        for (const id of hooks) {
          const view = (await api('GET', `/webhooks/${id}`, { key: account.key })).body.webhook;
          expect({ id, tenants: view.tenants, enabled: view.enabled }).toEqual({ id, tenants: others, enabled: true });
        }
      }
      expect({ updated: updated > 0, refused: refused > 0 }).toEqual({ updated: true, refused: true });
    },
    RACE_TEST_MS,
  );

  it("DELETE cancels the tenant's scheduled emails (as PATCH {cancel} would), and no other", async () => {
    const account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const doomed = await createTenant(account, {}, 'doomed');
    const sibling = await createTenant(account, {}, 'sibling');
    const doomedIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const sent = await scheduleFor(account, doomed.external_id);
      expect(sent.status).toBe(200);
      doomedIds.push(sent.body.id);
    }
    const siblingId = (await scheduleFor(account, sibling.external_id)).body.id as string;
    const accountId = (await scheduleFor(account, null)).body.id as string;

    expect((await api('DELETE', `/tenants/${doomed.external_id}`, { key: account.key })).status).toBe(200);
    for (const id of doomedIds) expect(await emailOf(account, id)).toMatchObject({ id, status: 'cancelled', tenant: null });
    expect(await emailOf(account, siblingId)).toMatchObject({ status: 'scheduled', tenant: sibling.external_id });
    expect(await emailOf(account, accountId)).toMatchObject({ status: 'scheduled', tenant: null });
    // Cancelled for good: PATCH finds nothing to cancel or move.
    expect((await api('PATCH', `/emails/${doomedIds[0]}`, { key: account.key, body: { cancel: true } })).status).toBe(409);
  });

  it(
    'a scheduled send racing the deletion is either refused (404) or cancelled by it: none stays scheduled',
    async () => {
      const account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
      let accepted = 0;
      let refused = 0;
      // Rounds until both outcomes happened (the race was real), each with a tenant of its own.
      for (let round = 0; round < 4 && (accepted === 0 || refused === 0); round++) {
        const tenant = await createTenant(account, {}, 'sched');
        const schedule = () => scheduleFor(account, tenant.external_id, LARGE);
        const { answer: probe, took } = await timed(schedule);
        expect(probe.status).toBe(200);
        const { deleted, answers } = await raceWithDeletion(account, tenant.external_id, 10, Math.ceil(took / 2), schedule);
        expect(deleted).toBe(200);
        // Accepted before the DELETE began: cancelled by it.
        expect(await emailOf(account, probe.body.id)).toMatchObject({ id: probe.body.id, status: 'cancelled' });
        for (const answer of answers) {
          expect([200, 404]).toContain(answer.status);
          if (answer.status === 404) {
            refused++;
            continue;
          }
          accepted++;
          expect(await emailOf(account, answer.body.id)).toMatchObject({ id: answer.body.id, status: 'cancelled' });
        }
      }
      expect({ accepted: accepted > 0, refused: refused > 0 }).toEqual({ accepted: true, refused: true });
    },
    RACE_TEST_MS,
  );
});
