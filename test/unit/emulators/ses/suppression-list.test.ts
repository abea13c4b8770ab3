/**
 * SES's suppression lists in the emulator, through the real SESv2 client: the account-level list (on by
 * default for BOUNCE and COMPLAINT), hard bounces and complaints recorded on it (never simulator
 * addresses), listed addresses not sent (Bounce/OnAccountSuppressionList, 200 answer), the
 * *SuppressedDestination* operations, configuration-set and tenant overrides with SES's precedence, and
 * persistence across a restart.
 */
import {
  CreateConfigurationSetCommand,
  CreateConfigurationSetEventDestinationCommand,
  CreateTenantCommand,
  CreateTenantResourceAssociationCommand,
  DeleteSuppressedDestinationCommand,
  GetAccountCommand,
  GetConfigurationSetCommand,
  GetSuppressedDestinationCommand,
  GetTenantCommand,
  ListSuppressedDestinationsCommand,
  PutAccountSuppressionAttributesCommand,
  PutConfigurationSetSuppressionOptionsCommand,
  PutSuppressedDestinationCommand,
  PutTenantSuppressionAttributesCommand,
  SendEmailCommand,
  type SuppressionListReason,
} from '@aws-sdk/client-sesv2';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Harness, type SesEventRecord } from './harness';

const ACCOUNT = '000000000000';
const arn = (kind: 'identity' | 'configuration-set', name: string) => `arn:aws:ses:us-east-1:${ACCOUNT}:${kind}/${name}`;
const ALL_EVENTS = ['SEND', 'DELIVERY', 'BOUNCE', 'COMPLAINT'] as const;

let h: Harness;
let dataDir: string;
let n = 0;
/** A fresh real address that hard-bounces (bounceRecipients), complains (complaintRecipients) or is delivered. */
const bouncing = () => `gone${++n}@hard-bounces.test`;
const complaining = () => `angry${++n}@complains.test`;
const plain = () => `reader${++n}@example.org`;

async function createSet(name: string, extra: Partial<ConstructorParameters<typeof CreateConfigurationSetCommand>[0]> = {}) {
  await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: name, ...extra }));
  await h.client.send(
    new CreateConfigurationSetEventDestinationCommand({
      ConfigurationSetName: name,
      EventDestinationName: 'to-sns',
      EventDestination: { Enabled: true, MatchingEventTypes: [...ALL_EVENTS], SnsDestination: { TopicArn: h.topicArn } },
    }),
  );
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'ses-suppression-'));
  h = await Harness.start({
    dataDir,
    outcomeDelayMs: 10,
    bounceRecipients: /@hard-bounces\.test$/i,
    complaintRecipients: /@complains\.test$/i,
  });
  await createSet('plain');
  await createSet('no-suppression', { SuppressionOptions: { SuppressedReasons: [] } });
  await createSet('complaints-only', { SuppressionOptions: { SuppressedReasons: ['COMPLAINT'] } });
});

afterAll(async () => {
  await h.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const errorOf = async (promise: Promise<unknown>): Promise<{ name: string; status?: number; message: string }> => {
  try {
    await promise;
  } catch (error) {
    const e = error as Error & { $metadata?: { httpStatusCode?: number } };
    return { name: e.name, status: e.$metadata?.httpStatusCode, message: e.message };
  }
  throw new Error('expected the call to fail');
};

async function sendTo(to: string, set: string, extra: { TenantName?: string } = {}): Promise<string> {
  const out = await h.client.send(
    new SendEmailCommand({
      FromEmailAddress: 'sender@example.com',
      Destination: { ToAddresses: [to] },
      Content: { Simple: { Subject: { Data: 'hi' }, Body: { Text: { Data: 'hello' } } } },
      ConfigurationSetName: set,
      ...extra,
    }),
  );
  expect(out.$metadata.httpStatusCode).toBe(200);
  return out.MessageId!;
}

/** The events of a send, waiting for at least `count`. */
const eventsOf = (id: string, count: number): Promise<SesEventRecord[]> => h.eventsFor(id, count);
const bounceOf = (e: SesEventRecord | undefined) =>
  e?.bounce as
    | { bounceType: string; bounceSubType: string; bouncedRecipients: { emailAddress: string; diagnosticCode: string }[] }
    | undefined;

async function listed(tenantName?: string): Promise<{ EmailAddress?: string; Reason?: string }[]> {
  const out: { EmailAddress?: string; Reason?: string }[] = [];
  let token: string | undefined;
  do {
    const page = await h.client.send(new ListSuppressedDestinationsCommand({ NextToken: token, TenantName: tenantName }));
    out.push(...(page.SuppressedDestinationSummaries ?? []));
    token = page.NextToken;
  } while (token);
  return out;
}

describe('the account-level list and its settings', () => {
  it('is on by default for BOUNCE and COMPLAINT (GetAccount), and PutAccountSuppressionAttributes changes it', async () => {
    expect((await h.client.send(new GetAccountCommand({}))).SuppressionAttributes).toEqual({ SuppressedReasons: ['BOUNCE', 'COMPLAINT'] });
    await h.client.send(new PutAccountSuppressionAttributesCommand({ SuppressedReasons: ['COMPLAINT'] }));
    expect((await h.client.send(new GetAccountCommand({}))).SuppressionAttributes?.SuppressedReasons).toEqual(['COMPLAINT']);
    expect(
      await errorOf(h.client.send(new PutAccountSuppressionAttributesCommand({ SuppressedReasons: ['SPAM' as SuppressionListReason] }))),
    ).toMatchObject({
      name: 'BadRequestException',
      status: 400,
    });
    await h.client.send(new PutAccountSuppressionAttributesCommand({ SuppressedReasons: ['BOUNCE', 'COMPLAINT'] }));
  });

  it('records a hard bounce of a real address, then accepts (200) but does not send the next message to it', async () => {
    const address = bouncing();
    const first = await sendTo(address, 'plain');
    const bounced = await eventsOf(first, 2);
    expect(bounced.map((e) => e.eventType)).toEqual(['Send', 'Bounce']);
    const entry = (await h.client.send(new GetSuppressedDestinationCommand({ EmailAddress: address }))).SuppressedDestination;
    // The same feedback id as the Bounce event that put it there.
    expect(entry).toMatchObject({
      EmailAddress: address,
      Reason: 'BOUNCE',
      Attributes: { MessageId: first, FeedbackId: (bounced[1]!.bounce as { feedbackId: string }).feedbackId },
    });
    expect(entry!.LastUpdateTime).toBeInstanceOf(Date);

    const second = await sendTo(address, 'plain');
    const events = await eventsOf(second, 2);
    expect(events.map((e) => e.eventType)).toEqual(['Send', 'Bounce']);
    expect(bounceOf(events[1])).toMatchObject({
      bounceType: 'Permanent',
      bounceSubType: 'OnAccountSuppressionList',
      bouncedRecipients: [{ emailAddress: address, diagnosticCode: expect.stringContaining('suppression list') }],
    });
  });

  it('records a complaint, and answers the next send with a Complaint of sub-type OnAccountSuppressionList, without a Delivery', async () => {
    const address = complaining();
    const first = await sendTo(address, 'plain');
    expect((await eventsOf(first, 3)).map((e) => e.eventType)).toEqual(['Send', 'Delivery', 'Complaint']);
    expect((await h.client.send(new GetSuppressedDestinationCommand({ EmailAddress: address }))).SuppressedDestination?.Reason).toBe(
      'COMPLAINT',
    );
    const second = await sendTo(address, 'plain');
    const events = await eventsOf(second, 2);
    expect(events.map((e) => e.eventType)).toEqual(['Send', 'Complaint']);
    expect(events[1]!.complaint).toMatchObject({ complaintSubType: 'OnAccountSuppressionList' });
  });

  it('never lists mailbox simulator addresses', async () => {
    const id = await sendTo('bounce@simulator.amazonses.com', 'plain');
    await eventsOf(id, 2);
    const complained = await sendTo('complaint@simulator.amazonses.com', 'plain');
    await eventsOf(complained, 3);
    expect((await listed()).map((e) => e.EmailAddress)).not.toEqual(
      expect.arrayContaining([expect.stringContaining('simulator.amazonses.com')]),
    );
    // Still bounced by the simulator, not by the list.
    expect(bounceOf((await eventsOf(await sendTo('bounce@simulator.amazonses.com', 'plain'), 2))[1])?.bounceSubType).toBe('General');
  });

  it('suppresses only for the reasons enabled now: a BOUNCE entry is sent while the account suppresses complaints only', async () => {
    const address = plain();
    await h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: address, Reason: 'BOUNCE' }));
    await h.client.send(new PutAccountSuppressionAttributesCommand({ SuppressedReasons: ['COMPLAINT'] }));
    try {
      expect((await eventsOf(await sendTo(address, 'plain'), 2)).map((e) => e.eventType)).toEqual(['Send', 'Delivery']);
      // And a new hard bounce is not recorded.
      const gone = bouncing();
      await eventsOf(await sendTo(gone, 'plain'), 2);
      expect(await errorOf(h.client.send(new GetSuppressedDestinationCommand({ EmailAddress: gone })))).toMatchObject({
        name: 'NotFoundException',
      });
    } finally {
      await h.client.send(new PutAccountSuppressionAttributesCommand({ SuppressedReasons: ['BOUNCE', 'COMPLAINT'] }));
    }
    expect((await eventsOf(await sendTo(address, 'plain'), 2)).map((e) => e.eventType)).toEqual(['Send', 'Bounce']);
  });
});

describe('configuration-set overrides', () => {
  it('SuppressedReasons [] neither checks nor records: a listed address is delivered, a hard bounce stays off the list', async () => {
    const address = bouncing();
    await eventsOf(await sendTo(address, 'plain'), 2); // now listed (BOUNCE)
    const again = await sendTo(address, 'no-suppression');
    // Delivered to the mailbox's bouncing address: it bounces again (General), it is not suppressed.
    expect(bounceOf((await eventsOf(again, 2))[1])?.bounceSubType).toBe('General');

    const other = bouncing();
    await eventsOf(await sendTo(other, 'no-suppression'), 2);
    expect(await errorOf(h.client.send(new GetSuppressedDestinationCommand({ EmailAddress: other })))).toMatchObject({
      name: 'NotFoundException',
      status: 404,
    });

    const listedPlain = plain();
    await h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: listedPlain, Reason: 'COMPLAINT' }));
    expect((await eventsOf(await sendTo(listedPlain, 'no-suppression'), 2)).map((e) => e.eventType)).toEqual(['Send', 'Delivery']);
    expect((await eventsOf(await sendTo(listedPlain, 'plain'), 2)).map((e) => e.eventType)).toEqual(['Send', 'Complaint']);
  });

  it("its own reasons replace the account's: a complaints-only set sends to a BOUNCE entry", async () => {
    const address = plain();
    await h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: address, Reason: 'BOUNCE' }));
    expect((await eventsOf(await sendTo(address, 'complaints-only'), 2)).map((e) => e.eventType)).toEqual(['Send', 'Delivery']);
  });

  it('PutConfigurationSetSuppressionOptions sets them (GetConfigurationSet shows them); bad values are refused', async () => {
    await createSet('changed');
    await h.client.send(new PutConfigurationSetSuppressionOptionsCommand({ ConfigurationSetName: 'changed', SuppressedReasons: [] }));
    expect((await h.client.send(new GetConfigurationSetCommand({ ConfigurationSetName: 'changed' }))).SuppressionOptions).toEqual({
      SuppressedReasons: [],
    });
    const address = plain();
    await h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: address, Reason: 'BOUNCE' }));
    expect((await eventsOf(await sendTo(address, 'changed'), 2)).map((e) => e.eventType)).toEqual(['Send', 'Delivery']);
    expect(
      await errorOf(
        h.client.send(
          new PutConfigurationSetSuppressionOptionsCommand({
            ConfigurationSetName: 'changed',
            SuppressedReasons: ['NOPE' as SuppressionListReason],
          }),
        ),
      ),
    ).toMatchObject({
      name: 'BadRequestException',
    });
    expect(
      await errorOf(
        h.client.send(new PutConfigurationSetSuppressionOptionsCommand({ ConfigurationSetName: 'missing', SuppressedReasons: [] })),
      ),
    ).toMatchObject({ name: 'NotFoundException' });
    expect(
      await errorOf(
        h.client.send(
          new CreateConfigurationSetCommand({
            ConfigurationSetName: 'bad',
            SuppressionOptions: { SuppressedReasons: ['X' as SuppressionListReason] },
          }),
        ),
      ),
    ).toMatchObject({ name: 'BadRequestException' });
  });
});

describe('tenants', () => {
  beforeAll(async () => {
    await h.client.send(
      new CreateTenantCommand({
        TenantName: 'own-list',
        SuppressionAttributes: { SuppressionScope: 'TENANT', SuppressedReasons: ['BOUNCE'] },
      }),
    );
    await h.client.send(new CreateTenantCommand({ TenantName: 'shared-list' }));
    await createSet('account-scope', { SuppressionOptions: { SuppressionScope: 'ACCOUNT' } });
    for (const tenant of ['own-list', 'shared-list']) {
      for (const resource of [
        arn('identity', 'example.com'),
        arn('configuration-set', 'plain'),
        arn('configuration-set', 'account-scope'),
      ]) {
        await h.client.send(new CreateTenantResourceAssociationCommand({ TenantName: tenant, ResourceArn: resource }));
      }
    }
  });

  it('keeps SuppressionAttributes with the tenant (GetTenant) and refuses scope without reasons', async () => {
    expect((await h.client.send(new GetTenantCommand({ TenantName: 'own-list' }))).Tenant?.SuppressionAttributes).toEqual({
      SuppressionScope: 'TENANT',
      SuppressedReasons: ['BOUNCE'],
    });
    expect(
      await errorOf(h.client.send(new PutTenantSuppressionAttributesCommand({ TenantName: 'shared-list', SuppressionScope: 'TENANT' }))),
    ).toMatchObject({ name: 'BadRequestException' });
    expect(
      await errorOf(
        h.client.send(
          new PutTenantSuppressionAttributesCommand({ TenantName: 'nobody', SuppressionScope: 'TENANT', SuppressedReasons: [] }),
        ),
      ),
    ).toMatchObject({ name: 'NotFoundException' });
  });

  it("a TENANT-scoped tenant records on and checks its own list, not the account's (OnTenantSuppressionList)", async () => {
    const address = bouncing();
    await eventsOf(await sendTo(address, 'plain', { TenantName: 'own-list' }), 2);
    expect((await listed('own-list')).map((e) => e.EmailAddress)).toContain(address);
    expect((await listed()).map((e) => e.EmailAddress)).not.toContain(address);
    expect(bounceOf((await eventsOf(await sendTo(address, 'plain', { TenantName: 'own-list' }), 2))[1])?.bounceSubType).toBe(
      'OnTenantSuppressionList',
    );

    // An address on the account list only is sent to by that tenant, but not by an ACCOUNT-scoped one.
    const onAccount = plain();
    await h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: onAccount, Reason: 'BOUNCE' }));
    expect((await eventsOf(await sendTo(onAccount, 'plain', { TenantName: 'own-list' }), 2)).map((e) => e.eventType)).toEqual([
      'Send',
      'Delivery',
    ]);
    expect(bounceOf((await eventsOf(await sendTo(onAccount, 'plain', { TenantName: 'shared-list' }), 2))[1])?.bounceSubType).toBe(
      'OnAccountSuppressionList',
    );
  });

  it("a configuration set's SuppressionScope overrides the tenant's", async () => {
    const onAccount = plain();
    await h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: onAccount, Reason: 'BOUNCE' }));
    expect(bounceOf((await eventsOf(await sendTo(onAccount, 'account-scope', { TenantName: 'own-list' }), 2))[1])?.bounceSubType).toBe(
      'OnAccountSuppressionList',
    );
  });

  it('PutTenantSuppressionAttributes with both null returns the tenant to the account list', async () => {
    await h.client.send(
      new CreateTenantCommand({
        TenantName: 'back-to-account',
        SuppressionAttributes: { SuppressionScope: 'TENANT', SuppressedReasons: [] },
      }),
    );
    await h.client.send(new PutTenantSuppressionAttributesCommand({ TenantName: 'back-to-account' }));
    expect((await h.client.send(new GetTenantCommand({ TenantName: 'back-to-account' }))).Tenant?.SuppressionAttributes).toBeUndefined();
  });
});

describe('*SuppressedDestination* operations', () => {
  it('puts, gets, lists (Reason filter, pages) and deletes addresses', async () => {
    const a = `list-a${++n}@example.org`;
    const b = `list-b${n}@example.org`;
    const c = `list-c${n}@example.org`;
    await h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: a, Reason: 'BOUNCE' }));
    await h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: b, Reason: 'COMPLAINT' }));
    await h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: c, Reason: 'COMPLAINT' }));
    // A second put changes the reason (no duplicate).
    await h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: a.toUpperCase(), Reason: 'COMPLAINT' }));
    const all = await listed();
    expect(all.filter((e) => [a, b, c].includes(e.EmailAddress!.toLowerCase()))).toHaveLength(3);
    expect((await h.client.send(new GetSuppressedDestinationCommand({ EmailAddress: a }))).SuppressedDestination).toMatchObject({
      Reason: 'COMPLAINT',
    });
    expect(
      (await h.client.send(new GetSuppressedDestinationCommand({ EmailAddress: a }))).SuppressedDestination?.Attributes,
    ).toBeUndefined();

    const bounces = await h.client.send(new ListSuppressedDestinationsCommand({ Reasons: ['BOUNCE'] }));
    expect(bounces.SuppressedDestinationSummaries?.every((e) => e.Reason === 'BOUNCE')).toBe(true);
    const firstPage = await h.client.send(new ListSuppressedDestinationsCommand({ PageSize: 2 }));
    expect(firstPage.SuppressedDestinationSummaries).toHaveLength(2);
    expect(firstPage.NextToken).toEqual(expect.any(String));
    const future = await h.client.send(new ListSuppressedDestinationsCommand({ StartDate: new Date(Date.now() + 60_000) }));
    expect(future.SuppressedDestinationSummaries).toEqual([]);

    await h.client.send(new DeleteSuppressedDestinationCommand({ EmailAddress: b }));
    expect(await errorOf(h.client.send(new GetSuppressedDestinationCommand({ EmailAddress: b })))).toMatchObject({
      name: 'NotFoundException',
      status: 404,
    });
    expect(await errorOf(h.client.send(new DeleteSuppressedDestinationCommand({ EmailAddress: b })))).toMatchObject({
      name: 'NotFoundException',
      status: 404,
    });
  });

  it('refuses bad input as SES does', async () => {
    expect(
      await errorOf(h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: 'not an address', Reason: 'BOUNCE' }))),
    ).toMatchObject({ name: 'BadRequestException', status: 400 });
    expect(
      await errorOf(
        h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: 'a@example.org', Reason: 'SPAM' as SuppressionListReason })),
      ),
    ).toMatchObject({ name: 'BadRequestException' });
    expect(
      await errorOf(
        h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: 'a@example.org', Reason: 'BOUNCE', TenantName: 'nobody' })),
      ),
    ).toMatchObject({ name: 'NotFoundException' });
    expect(await errorOf(h.client.send(new ListSuppressedDestinationsCommand({ NextToken: 'bm9wZQ==' })))).toMatchObject({
      name: 'InvalidNextTokenException',
      status: 400,
    });
    expect(await errorOf(h.client.send(new ListSuppressedDestinationsCommand({ PageSize: 0 })))).toMatchObject({
      name: 'BadRequestException',
    });
  });

  it('a removed address is sent to again', async () => {
    const address = bouncing();
    await eventsOf(await sendTo(address, 'plain'), 2);
    await h.client.send(new DeleteSuppressedDestinationCommand({ EmailAddress: address }));
    expect(bounceOf((await eventsOf(await sendTo(address, 'plain'), 2))[1])?.bounceSubType).toBe('General');
  });
});

describe('persistence', () => {
  it('keeps the lists and the account settings across a restart', async () => {
    const address = plain();
    await h.client.send(new PutSuppressedDestinationCommand({ EmailAddress: address, Reason: 'BOUNCE' }));
    await h.client.send(new PutAccountSuppressionAttributesCommand({ SuppressedReasons: ['BOUNCE'] }));
    await h.ses.stop();
    await h.startSes({ dataDir, outcomeDelayMs: 10 });
    expect((await h.client.send(new GetAccountCommand({}))).SuppressionAttributes?.SuppressedReasons).toEqual(['BOUNCE']);
    expect((await h.client.send(new GetSuppressedDestinationCommand({ EmailAddress: address }))).SuppressedDestination?.Reason).toBe(
      'BOUNCE',
    );
    expect((await listed('own-list')).length).toBeGreaterThan(0);
  });
});
