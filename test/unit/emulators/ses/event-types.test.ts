/**
 * Every SES event type and sub-type the emulator publishes (simulator.ts triggers, events.ts records),
 * per recipient and, on request, out of order; tenants' sending status and the `ses:tenant-name` tag.
 * docs/local-cloud/ses.md, "Events" and "Tenants".
 */
import {
  CreateConfigurationSetCommand,
  CreateConfigurationSetEventDestinationCommand,
  CreateTenantCommand,
  CreateTenantResourceAssociationCommand,
  GetReputationEntityCommand,
  GetTenantCommand,
  ListTenantsCommand,
  SendEmailCommand,
  UpdateReputationEntityCustomerManagedStatusCommand,
} from '@aws-sdk/client-sesv2';
import { LOCAL_EVENTS_DOMAIN } from '#localstack/emulators/ses/simulator';
import { Harness, VERIFIED_DOMAIN, type SesEventRecord } from './harness';

const SET = 'events-set';
const local = (part: string) => `${part}@${LOCAL_EVENTS_DOMAIN}`;

let h: Harness;

beforeAll(async () => {
  h = await Harness.start({ outcomeDelayMs: 10, earlyLeadMs: 300 });
  await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: SET }));
  await h.client.send(
    new CreateConfigurationSetEventDestinationCommand({
      ConfigurationSetName: SET,
      EventDestinationName: 'to-sns',
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ['SEND', 'DELIVERY', 'BOUNCE', 'COMPLAINT', 'DELIVERY_DELAY', 'REJECT'],
        SnsDestination: { TopicArn: h.topicArn },
      },
    }),
  );
});

afterAll(async () => {
  await h.stop();
});

async function send(to: string[], extra: Partial<ConstructorParameters<typeof SendEmailCommand>[0]> = {}): Promise<string> {
  const out = await h.client.send(
    new SendEmailCommand({
      FromEmailAddress: `sender@${VERIFIED_DOMAIN}`,
      Destination: { ToAddresses: to },
      Content: { Simple: { Subject: { Data: 'events' }, Body: { Text: { Data: 'hi' } } } },
      ConfigurationSetName: SET,
      ...extra,
    }),
  );
  return out.MessageId!;
}

const bounceOf = (e: SesEventRecord) =>
  e.bounce as {
    bounceType: string;
    bounceSubType: string;
    bouncedRecipients: { emailAddress: string; status: string; diagnosticCode?: string }[];
    remoteMtaIp?: string;
  };

// The tests of the first three groups run at once (`it.concurrent`: each waits on its own message's events);
// the tenants' run one by one, since they pause and resume one tenant.
describe('bounce types and sub-types', () => {
  it.concurrent.each([
    ['transient', 'Transient', 'General'],
    ['mailboxfull', 'Transient', 'MailboxFull'],
    ['messagetoolarge', 'Transient', 'MessageTooLarge'],
    ['contentrejected', 'Transient', 'ContentRejected'],
    ['attachmentrejected', 'Transient', 'AttachmentRejected'],
    ['undetermined', 'Undetermined', 'Undetermined'],
    ['noemail', 'Permanent', 'NoEmail'],
    ['tenantsuppressionlist', 'Permanent', 'OnTenantSuppressionList'],
  ])('%s@ gives Send then Bounce %s/%s', async (part, bounceType, subType) => {
    const id = await send([local(part)]);
    const events = await h.eventsFor(id, 2);
    expect(events.map((e) => e.eventType)).toEqual(['Send', 'Bounce']);
    expect(bounceOf(events[1]!)).toMatchObject({
      bounceType,
      bounceSubType: subType,
      bouncedRecipients: [{ emailAddress: local(part), status: expect.any(String) }],
    });
  });

  it.concurrent.each([
    [local('inactive'), 'Permanent', '5.2.1', '550-5.2.1 The email account that you tried to reach is disabled.'],
    [local('blocked'), 'Permanent', '5.7.1', 'Client host [127.0.0.1] blocked using zen.spamhaus.org'],
    [local('ratelimited'), 'Transient', '4.7.28', '421-4.7.28 Our system has detected an unusual rate of unsolicited mail'],
    ['ann@nowhere.invalid', 'Transient', '5.4.4', 'smtp; 550 5.4.4 Invalid domain'],
  ])('%s gives a %s/General bounce with the receiver reply %s', async (to, bounceType, status, reply) => {
    const events = await h.eventsFor(await send([to, 'bounce@simulator.amazonses.com']), 3);
    const bounces = events.filter((e) => e.eventType === 'Bounce').map(bounceOf);
    const mine = bounces.find((b) => b.bouncedRecipients.some((r) => r.emailAddress === to))!;
    expect(mine).toMatchObject({ bounceType, bounceSubType: 'General' });
    expect(mine.bouncedRecipients.find((r) => r.emailAddress === to)).toEqual({
      emailAddress: to,
      action: 'failed',
      status,
      diagnosticCode: expect.stringContaining(reply),
    });
    // A recipient sharing the bounce keeps its own reply.
    const hard = bounces.flatMap((b) => b.bouncedRecipients).find((r) => r.emailAddress === 'bounce@simulator.amazonses.com');
    expect(hard).toMatchObject({ status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' });
  });

  it.concurrent('an Undetermined bounce carries no diagnostic code; a suppression-list one no remote MTA', async () => {
    const undetermined = bounceOf((await h.eventsFor(await send([local('undetermined')]), 2))[1]!);
    expect(undetermined.bouncedRecipients[0]!.diagnosticCode).toBeUndefined();
    const suppressed = bounceOf((await h.eventsFor(await send(['suppressionlist@simulator.amazonses.com']), 2))[1]!);
    expect(suppressed).toMatchObject({ bounceType: 'Permanent', bounceSubType: 'OnAccountSuppressionList' });
    expect(suppressed.remoteMtaIp).toBeUndefined();
  });
});

describe('DeliveryDelay, Reject, complaint sub-types', () => {
  it.concurrent('delay@ gives a DeliveryDelay (delayType, expirationTime, delayedRecipients) then its Delivery', async () => {
    const id = await send([local('delay+mailboxfull')]);
    const events = await h.eventsFor(id, 3);
    expect(events.map((e) => e.eventType)).toEqual(['Send', 'DeliveryDelay', 'Delivery']);
    const delay = events[1]!.deliveryDelay as {
      timestamp: string;
      delayType: string;
      expirationTime: string;
      delayedRecipients: { emailAddress: string; status: string }[];
    };
    expect(delay).toMatchObject({
      delayType: 'MailboxFull',
      delayedRecipients: [{ emailAddress: local('delay+mailboxfull'), status: expect.stringMatching(/^4\./) }],
    });
    expect(Date.parse(delay.expirationTime)).toBeGreaterThan(Date.parse(delay.timestamp));
  });

  it.concurrent('reject@ anywhere in a message gives Send then Reject "Bad content", and no Delivery for anyone', async () => {
    const id = await send(['a@example.net', local('reject')]);
    const events = await h.eventsFor(id, 3, 800);
    expect(events.map((e) => e.eventType)).toEqual(['Send', 'Reject']);
    expect(events[1]!.reject).toEqual({ reason: 'Bad content' });
  });

  it.concurrent('complaintsuppressed@ gives a Complaint with complaintSubType OnAccountSuppressionList, without a Delivery or feedback report', async () => {
    const id = await send([local('complaintsuppressed')]);
    const events = await h.eventsFor(id, 3, 800);
    expect(events.map((e) => e.eventType)).toEqual(['Send', 'Complaint']);
    expect(events[1]!.complaint).toMatchObject({
      complaintSubType: 'OnAccountSuppressionList',
      complainedRecipients: [{ emailAddress: local('complaintsuppressed') }],
    });
    expect(events[1]!.complaint).not.toHaveProperty('complaintFeedbackType');
    // The real simulator's complaint has no sub-type.
    const real = await h.eventsFor(await send(['complaint@simulator.amazonses.com']), 3);
    expect(real[2]!.complaint).toMatchObject({ complaintSubType: null, complaintFeedbackType: 'abuse' });
  });
});

describe('per recipient and out of order', () => {
  it.concurrent('publishes one Delivery per recipient', async () => {
    const id = await send(['a@example.net', 'b@example.net']);
    const events = await h.eventsFor(id, 3);
    expect(events.map((e) => [e.eventType, (e.delivery as { recipients?: string[] } | undefined)?.recipients])).toEqual([
      ['Send', undefined],
      ['Delivery', ['a@example.net']],
      ['Delivery', ['b@example.net']],
    ]);
  });

  it.concurrent('+early publishes that recipient first, earlyLeadMs before the others', async () => {
    const id = await send(['a@example.net', 'suppressionlist+early@simulator.amazonses.com']);
    const events = await h.eventsFor(id, 3);
    expect(events.map((e) => e.eventType)).toEqual(['Send', 'Bounce', 'Delivery']);
    const bouncedAt = Date.parse((events[1]!.bounce as { timestamp: string }).timestamp);
    const deliveredAt = Date.parse((events[2]!.delivery as { timestamp: string }).timestamp);
    expect(deliveredAt - bouncedAt).toBeGreaterThanOrEqual(300);
  });

  it.concurrent('in `ses` order (LOCAL_SES_EVENT_ORDER=ses) every suppression-list event goes first', async () => {
    const other = await Harness.start({ outcomeDelayMs: 10, earlyLeadMs: 50, eventOrder: 'ses' });
    try {
      await other.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: SET }));
      await other.client.send(
        new CreateConfigurationSetEventDestinationCommand({
          ConfigurationSetName: SET,
          EventDestinationName: 'to-sns',
          EventDestination: {
            Enabled: true,
            MatchingEventTypes: ['DELIVERY', 'BOUNCE', 'COMPLAINT'],
            SnsDestination: { TopicArn: other.topicArn },
          },
        }),
      );
      const out = await other.client.send(
        new SendEmailCommand({
          FromEmailAddress: `sender@${VERIFIED_DOMAIN}`,
          Destination: { ToAddresses: ['a@example.net', 'suppressionlist@simulator.amazonses.com', local('complaintsuppressed')] },
          Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 'x' } } } },
          ConfigurationSetName: SET,
        }),
      );
      const events = await other.eventsFor(out.MessageId!, 3);
      expect(events.map((e) => e.eventType)).toEqual(['Bounce', 'Complaint', 'Delivery']);
    } finally {
      await other.stop();
    }
  });
});

describe('tenants: sending status and the tenant tag', () => {
  const TENANT = 'ten_01JD0000000000000000000077';
  const arn = (kind: string, name: string) => `arn:aws:ses:us-east-1:000000000000:${kind}/${name}`;

  beforeAll(async () => {
    await h.client.send(new CreateTenantCommand({ TenantName: TENANT }));
    await h.client.send(new CreateTenantResourceAssociationCommand({ TenantName: TENANT, ResourceArn: arn('configuration-set', SET) }));
    await h.client.send(new CreateTenantResourceAssociationCommand({ TenantName: TENANT, ResourceArn: arn('identity', VERIFIED_DOMAIN) }));
  });

  it('tags the events of a tenant send with ses:tenant-name', async () => {
    const id = await send(['a@example.net'], { TenantName: TENANT });
    const events = await h.eventsFor(id, 2);
    expect(events.map((e) => e.mail.tags['ses:tenant-name'])).toEqual([[TENANT], [TENANT]]);
    const plain = await h.eventsFor(await send(['a@example.net']), 2);
    expect(plain[1]!.mail.tags['ses:tenant-name']).toBeUndefined();
  });

  it('a DISABLED tenant refuses sends with SendingPausedException until ENABLED or REINSTATED again', async () => {
    const { Tenant } = await h.client.send(new GetTenantCommand({ TenantName: TENANT }));
    const pause = (SendingStatus: 'ENABLED' | 'REINSTATED' | 'DISABLED') =>
      h.client.send(
        new UpdateReputationEntityCustomerManagedStatusCommand({
          ReputationEntityType: 'RESOURCE',
          ReputationEntityReference: Tenant!.TenantArn!,
          SendingStatus,
        }),
      );
    await pause('DISABLED');
    expect((await h.client.send(new GetTenantCommand({ TenantName: TENANT }))).Tenant?.SendingStatus).toBe('DISABLED');
    const entity = await h.client.send(
      new GetReputationEntityCommand({ ReputationEntityType: 'RESOURCE', ReputationEntityReference: Tenant!.TenantArn! }),
    );
    expect(entity.ReputationEntity).toMatchObject({ CustomerManagedStatus: { Status: 'DISABLED' }, SendingStatusAggregate: 'DISABLED' });
    const listed = await h.client.send(new ListTenantsCommand({ Filter: { SENDING_STATUS: 'DISABLED' } }));
    expect(listed.Tenants?.map((t) => t.TenantName)).toEqual([TENANT]);
    await expect(send(['a@example.net'], { TenantName: TENANT })).rejects.toMatchObject({ name: 'SendingPausedException' });
    // The account itself still sends.
    await expect(send(['a@example.net'])).resolves.toEqual(expect.any(String));
    await pause('REINSTATED');
    await expect(send(['a@example.net'], { TenantName: TENANT })).resolves.toEqual(expect.any(String));
    await pause('ENABLED');
    expect((await h.client.send(new GetTenantCommand({ TenantName: TENANT }))).Tenant?.SendingStatus).toBe('ENABLED');
  });

  it('refuses a bad status, an entity type other than RESOURCE, and an unknown entity', async () => {
    const { Tenant } = await h.client.send(new GetTenantCommand({ TenantName: TENANT }));
    const update = (input: Record<string, string>) => h.client.send(new UpdateReputationEntityCustomerManagedStatusCommand(input as never));
    await expect(
      update({ ReputationEntityType: 'RESOURCE', ReputationEntityReference: Tenant!.TenantArn!, SendingStatus: 'PAUSED' }),
    ).rejects.toMatchObject({ name: 'BadRequestException' });
    await expect(
      update({ ReputationEntityType: 'TENANT', ReputationEntityReference: Tenant!.TenantArn!, SendingStatus: 'DISABLED' }),
    ).rejects.toMatchObject({ name: 'BadRequestException' });
    await expect(
      update({ ReputationEntityType: 'RESOURCE', ReputationEntityReference: `${Tenant!.TenantArn!}x`, SendingStatus: 'DISABLED' }),
    ).rejects.toMatchObject({ name: 'NotFoundException' });
  });
});
