/**
 * The SES emulator's tenants through the real SESv2 client: CreateTenant, GetTenant, ListTenants,
 * DeleteTenant, resource associations by ARN, SendEmail with TenantName (refused unless the tenant
 * exists and the identity and configuration set are associated), the viewer, persistence; and the
 * SesV2Tenants adapter and the SesMailer's TenantName against it.
 */
import {
  CreateConfigurationSetCommand,
  CreateEmailIdentityCommand,
  CreateTenantCommand,
  CreateTenantResourceAssociationCommand,
  DeleteConfigurationSetCommand,
  DeleteEmailIdentityCommand,
  DeleteTenantCommand,
  DeleteTenantResourceAssociationCommand,
  GetTenantCommand,
  ListResourceTenantsCommand,
  ListTenantResourcesCommand,
  ListTenantsCommand,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SesMailer } from '#shared/adapters/aws/ses-mailer';
import { SesV2Tenants, sesResourceArn } from '#shared/adapters/aws/ses-tenants';
import { MailerError } from '#shared/ports/mail';
import { Harness, rawMessage } from './harness';

const ACCOUNT = '000000000000';
const arn = (kind: 'identity' | 'configuration-set', name: string) => `arn:aws:ses:us-east-1:${ACCOUNT}:${kind}/${name}`;

let h: Harness;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'ses-tenants-'));
  h = await Harness.start({ dataDir });
  await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: 'outbound' }));
  await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: 'other' }));
  await h.client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'tenant-a.example.com' }));
  await h.client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'shared.example.com' }));
});

afterAll(async () => {
  await h.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const errorOf = async (promise: Promise<unknown>): Promise<{ name: string; message: string; status?: number }> => {
  try {
    await promise;
  } catch (error) {
    const e = error as Error & { $metadata?: { httpStatusCode?: number } };
    return { name: e.name, message: e.message, status: e.$metadata?.httpStatusCode };
  }
  throw new Error('expected the call to fail');
};

const send = (from: string, extra: { TenantName?: string; ConfigurationSetName?: string } = {}) =>
  h.client.send(
    new SendEmailCommand({
      Content: { Raw: { Data: rawMessage([`From: ${from}`, 'To: someone@example.net', 'Subject: s', '', 'x']) } },
      ...extra,
    }),
  );

describe('CreateTenant, GetTenant, ListTenants, DeleteTenant', () => {
  it('creates a tenant named by our id, with its id and ARN, ENABLED', async () => {
    const created = await h.client.send(
      new CreateTenantCommand({ TenantName: 'ten_01JD0000000000000000000001', Tags: [{ Key: 'k', Value: 'v' }] }),
    );
    expect(created).toMatchObject({
      TenantName: 'ten_01JD0000000000000000000001',
      SendingStatus: 'ENABLED',
      Tags: [{ Key: 'k', Value: 'v' }],
    });
    expect(created.TenantId).toMatch(/^tn-/);
    expect(created.TenantArn).toBe(`arn:aws:ses:us-east-1:${ACCOUNT}:tenant/ten_01JD0000000000000000000001/${created.TenantId}`);
    expect(created.CreatedTimestamp).toBeInstanceOf(Date);
    const got = await h.client.send(new GetTenantCommand({ TenantName: 'ten_01JD0000000000000000000001' }));
    expect(got.Tenant).toMatchObject({
      TenantName: 'ten_01JD0000000000000000000001',
      TenantId: created.TenantId,
      SendingStatus: 'ENABLED',
    });
  });

  it('refuses a duplicate (AlreadyExistsException) and invalid names (BadRequestException)', async () => {
    await h.client.send(new CreateTenantCommand({ TenantName: 'dup' }));
    expect(await errorOf(h.client.send(new CreateTenantCommand({ TenantName: 'dup' })))).toMatchObject({
      name: 'AlreadyExistsException',
      status: 400,
    });
    for (const bad of ['has space', 'a.b', 'x'.repeat(65), 'é']) {
      expect(await errorOf(h.client.send(new CreateTenantCommand({ TenantName: bad })))).toMatchObject({
        name: 'BadRequestException',
        status: 400,
      });
    }
    expect((await h.client.send(new CreateTenantCommand({ TenantName: `A-_9${'x'.repeat(60)}` }))).TenantName).toHaveLength(64);
  });

  it('lists tenants sorted by name, in pages', async () => {
    for (const name of ['list-c', 'list-a', 'list-b']) await h.client.send(new CreateTenantCommand({ TenantName: name }));
    const first = await h.client.send(new ListTenantsCommand({ PageSize: 2 }));
    const names: string[] = (first.Tenants ?? []).map((t) => t.TenantName!);
    let token = first.NextToken;
    while (token) {
      const next = await h.client.send(new ListTenantsCommand({ PageSize: 2, NextToken: token }));
      names.push(...(next.Tenants ?? []).map((t) => t.TenantName!));
      token = next.NextToken;
    }
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['list-a', 'list-b', 'list-c']));
  });

  it('deletes a tenant (NotFoundException when absent)', async () => {
    await h.client.send(new CreateTenantCommand({ TenantName: 'gone' }));
    await h.client.send(new DeleteTenantCommand({ TenantName: 'gone' }));
    expect(await errorOf(h.client.send(new GetTenantCommand({ TenantName: 'gone' })))).toMatchObject({
      name: 'NotFoundException',
      status: 404,
    });
    expect(await errorOf(h.client.send(new DeleteTenantCommand({ TenantName: 'gone' })))).toMatchObject({
      name: 'NotFoundException',
      status: 404,
    });
  });
});

describe('resource associations', () => {
  beforeAll(async () => {
    await h.client.send(new CreateTenantCommand({ TenantName: 'assoc' }));
  });

  it('associates identities and configuration sets by ARN, lists them both ways, and removes them', async () => {
    await h.client.send(
      new CreateTenantResourceAssociationCommand({ TenantName: 'assoc', ResourceArn: arn('configuration-set', 'outbound') }),
    );
    await h.client.send(
      new CreateTenantResourceAssociationCommand({ TenantName: 'assoc', ResourceArn: arn('identity', 'shared.example.com') }),
    );
    const listed = await h.client.send(new ListTenantResourcesCommand({ TenantName: 'assoc' }));
    expect(listed.TenantResources).toEqual([
      { ResourceType: 'CONFIGURATION_SET', ResourceArn: arn('configuration-set', 'outbound') },
      { ResourceType: 'EMAIL_IDENTITY', ResourceArn: arn('identity', 'shared.example.com') },
    ]);
    const identities = await h.client.send(
      new ListTenantResourcesCommand({ TenantName: 'assoc', Filter: { RESOURCE_TYPE: 'EMAIL_IDENTITY' } }),
    );
    expect(identities.TenantResources).toHaveLength(1);
    const tenants = await h.client.send(new ListResourceTenantsCommand({ ResourceArn: arn('identity', 'shared.example.com') }));
    expect(tenants.ResourceTenants?.map((t) => t.TenantName)).toEqual(['assoc']);

    await h.client.send(
      new DeleteTenantResourceAssociationCommand({ TenantName: 'assoc', ResourceArn: arn('identity', 'shared.example.com') }),
    );
    expect((await h.client.send(new ListTenantResourcesCommand({ TenantName: 'assoc' }))).TenantResources).toHaveLength(1);
  });

  it('answers AlreadyExists, NotFound and BadRequest as SES does', async () => {
    const assoc = (TenantName: string, ResourceArn: string) =>
      h.client.send(new CreateTenantResourceAssociationCommand({ TenantName, ResourceArn }));
    await assoc('assoc', arn('configuration-set', 'other'));
    expect(await errorOf(assoc('assoc', arn('configuration-set', 'other')))).toMatchObject({ name: 'AlreadyExistsException' });
    expect(await errorOf(assoc('nobody', arn('configuration-set', 'other')))).toMatchObject({ name: 'NotFoundException' });
    expect(await errorOf(assoc('assoc', arn('identity', 'missing.example.com')))).toMatchObject({ name: 'NotFoundException' });
    expect(await errorOf(assoc('assoc', 'arn:aws:ses:eu-west-1:000000000000:identity/shared.example.com'))).toMatchObject({
      name: 'NotFoundException',
    });
    expect(await errorOf(assoc('assoc', 'arn:aws:sqs:us-east-1:000000000000:queue'))).toMatchObject({ name: 'BadRequestException' });
    const dissociate = (ResourceArn: string) =>
      h.client.send(new DeleteTenantResourceAssociationCommand({ TenantName: 'assoc', ResourceArn }));
    expect(await errorOf(dissociate(arn('identity', 'tenant-a.example.com')))).toMatchObject({ name: 'NotFoundException' });
  });

  it('drops the associations of a deleted identity or configuration set', async () => {
    await h.client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'short-lived.example.com' }));
    await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: 'short-lived' }));
    await h.client.send(
      new CreateTenantResourceAssociationCommand({ TenantName: 'assoc', ResourceArn: arn('identity', 'Short-Lived.example.com') }),
    );
    await h.client.send(
      new CreateTenantResourceAssociationCommand({ TenantName: 'assoc', ResourceArn: arn('configuration-set', 'short-lived') }),
    );
    await h.client.send(new DeleteEmailIdentityCommand({ EmailIdentity: 'short-lived.example.com' }));
    await h.client.send(new DeleteConfigurationSetCommand({ ConfigurationSetName: 'short-lived' }));
    const arns = (await h.client.send(new ListTenantResourcesCommand({ TenantName: 'assoc' }))).TenantResources?.map((r) => r.ResourceArn);
    expect(arns).not.toContain(arn('identity', 'short-lived.example.com'));
    expect(arns).not.toContain(arn('configuration-set', 'short-lived'));
  });
});

describe('SendEmail with TenantName', () => {
  beforeAll(async () => {
    await h.client.send(new CreateTenantCommand({ TenantName: 'sender' }));
  });

  it('is refused until the tenant exists and the identity and configuration set are associated', async () => {
    expect(await errorOf(send('a@tenant-a.example.com', { TenantName: 'nobody' }))).toMatchObject({
      name: 'NotFoundException',
      status: 404,
    });
    expect(await errorOf(send('a@tenant-a.example.com', { TenantName: 'bad name' }))).toMatchObject({ name: 'BadRequestException' });
    expect(await errorOf(send('a@tenant-a.example.com', { TenantName: 'sender' }))).toMatchObject({
      name: 'BadRequestException',
      message: expect.stringContaining('tenant-a.example.com'),
    });
    await h.client.send(
      new CreateTenantResourceAssociationCommand({ TenantName: 'sender', ResourceArn: arn('identity', 'tenant-a.example.com') }),
    );
    expect(await errorOf(send('a@tenant-a.example.com', { TenantName: 'sender', ConfigurationSetName: 'outbound' }))).toMatchObject({
      name: 'BadRequestException',
      message: expect.stringContaining('outbound'),
    });
    // A sender that is no identity at all cannot be the tenant's.
    expect(await errorOf(send('a@unregistered.example', { TenantName: 'sender' }))).toMatchObject({ name: 'BadRequestException' });
    await h.client.send(
      new CreateTenantResourceAssociationCommand({ TenantName: 'sender', ResourceArn: arn('configuration-set', 'outbound') }),
    );
    const sent = await send('a@tenant-a.example.com', { TenantName: 'sender', ConfigurationSetName: 'outbound' });
    expect(h.ses.listMessages().find((m) => m.id === sent.MessageId)).toMatchObject({
      tenant_name: 'sender',
      configuration_set: 'outbound',
    });
  });

  it("accepts a subdomain sender through its parent domain's identity, and records no tenant without TenantName", async () => {
    const sub = await send('a@news.tenant-a.example.com', { TenantName: 'sender' });
    expect(h.ses.listMessages().find((m) => m.id === sub.MessageId)?.tenant_name).toBe('sender');
    const plain = await send('a@tenant-a.example.com');
    expect(h.ses.listMessages().find((m) => m.id === plain.MessageId)?.tenant_name).toBeNull();
  });

  it('shows tenants on the viewer route', async () => {
    const res = await fetch(`${h.ses.url}/_local/tenants`);
    const body = (await res.json()) as { tenants: { tenant_name: string; resources: { arn: string }[] }[] };
    expect(body.tenants.find((t) => t.tenant_name === 'sender')?.resources.map((r) => r.arn)).toEqual([
      arn('identity', 'tenant-a.example.com'),
      arn('configuration-set', 'outbound'),
    ]);
  });
});

describe('the adapters against the emulator', () => {
  const settings = { region: 'us-east-1', accountId: ACCOUNT, configurationSet: 'outbound' };
  const tenants = (): SesV2Tenants => new SesV2Tenants(h.client, settings);

  it('builds identity and configuration set ARNs (and needs the account id)', () => {
    expect(sesResourceArn(settings, { kind: 'identity', name: 'x.example.com' })).toBe(arn('identity', 'x.example.com'));
    expect(sesResourceArn({ ...settings, region: 'cn-north-1' }, { kind: 'configuration_set' })).toBe(
      `arn:aws-cn:ses:cn-north-1:${ACCOUNT}:configuration-set/outbound`,
    );
    expect(() => sesResourceArn({ ...settings, accountId: '' }, { kind: 'configuration_set' })).toThrow('AWS_ACCOUNT_ID');
    expect(sesResourceArn(settings, { kind: 'configuration_set', tlsRequired: true })).toBe(
      arn('configuration-set', 'outbound-tls-required'),
    );
  });

  it('is idempotent: creating what exists and removing what is gone are done', async () => {
    const t = tenants();
    await t.ensureTenant('ten_ADAPTER');
    await t.ensureTenant('ten_ADAPTER');
    await t.associate('ten_ADAPTER', { kind: 'configuration_set' });
    await t.associate('ten_ADAPTER', { kind: 'configuration_set' });
    await t.associate('ten_ADAPTER', { kind: 'identity', name: 'tenant-a.example.com' });
    expect(
      h.ses
        .listTenants()
        .find((x) => x.tenant_name === 'ten_ADAPTER')
        ?.resources.map((r) => r.type),
    ).toEqual(['CONFIGURATION_SET', 'EMAIL_IDENTITY']);
    await t.dissociate('ten_ADAPTER', { kind: 'identity', name: 'tenant-a.example.com' });
    await t.dissociate('ten_ADAPTER', { kind: 'identity', name: 'tenant-a.example.com' });
    await t.deleteTenant('ten_ADAPTER');
    await t.deleteTenant('ten_ADAPTER');
    await t.dissociate('ten_ADAPTER', { kind: 'configuration_set' });
    expect(h.ses.listTenants().some((x) => x.tenant_name === 'ten_ADAPTER')).toBe(false);
  });

  it('throws what is not idempotence (associating an identity that does not exist)', async () => {
    await tenants().ensureTenant('ten_ADAPTER2');
    await expect(tenants().associate('ten_ADAPTER2', { kind: 'identity', name: 'never.example.com' })).rejects.toMatchObject({
      name: 'NotFoundException',
    });
  });

  it('SesMailer sends with TenantName, and marks a refusal of the tenant context', async () => {
    const t = tenants();
    await t.ensureTenant('ten_MAILER');
    await t.associate('ten_MAILER', { kind: 'configuration_set' });
    await t.associate('ten_MAILER', { kind: 'identity', name: 'tenant-a.example.com' });
    const mailer = new SesMailer(h.client, 'outbound');
    const message = {
      raw: rawMessage(['From: a@tenant-a.example.com', 'To: b@example.net', 'Subject: s', '', 'x']),
      from: 'a@tenant-a.example.com',
      to: ['b@example.net'],
      cc: [],
      bcc: [],
      tags: {},
    };
    const { providerMessageId } = await mailer.send({ ...message, tenantName: 'ten_MAILER' });
    expect(h.ses.listMessages().find((m) => m.id === providerMessageId)?.tenant_name).toBe('ten_MAILER');
    const refused = await mailer.send({ ...message, tenantName: 'ten_UNKNOWN' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MailerError);
    expect(refused).toMatchObject({ permanent: true, tenantRefused: true });
    const shared = await mailer.send({ ...message, from: 'a@shared.example.com', tenantName: 'ten_MAILER' }).catch((e: unknown) => e);
    expect(shared).toMatchObject({ tenantRefused: true });
  });
});

describe('persistence', () => {
  it('keeps tenants, their associations and the TenantName of messages across a restart', async () => {
    const tenantsBefore = h.ses.listTenants();
    const messagesBefore = h.ses.listMessages().map((m) => [m.id, m.tenant_name]);
    await h.ses.stop();
    expect(readdirSync(dataDir)).toContain('tenants.json');
    await h.startSes({ dataDir });
    expect(h.ses.listTenants()).toEqual(tenantsBefore);
    expect(h.ses.listMessages().map((m) => [m.id, m.tenant_name])).toEqual(messagesBefore);
    expect((await h.client.send(new GetTenantCommand({ TenantName: 'sender' }))).Tenant?.TenantName).toBe('sender');
  });
});
