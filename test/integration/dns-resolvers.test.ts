/**
 * One DNS for the functions and the emulators (docs/local-cloud/dns.md, "One DNS for the functions and the
 * emulators"): a stack of its own started with DNS_RESOLVERS naming another DNS server (a second instance of the
 * DNS emulator, run by this file), where a domain's records are published and nowhere else. The product reads
 * them there, and so do the local SES (DKIM, the MAIL FROM domain's MX through the rp CNAME) and ACM (the
 * certificate's validation CNAME): the domain becomes verified, SES's identity too, and a hosted MTA-STS
 * policy's certificate is issued. The sandbox sender, whose records the local cloud publishes in its own DNS
 * emulator, still sends.
 */
import { GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { startDnsEmulator, type DnsEmulator } from '#localstack/emulators/dns';
import { useOwnStack } from './harness/own-stack';
import type { PublicRecord } from './harness/dns';
import type { TestAccount } from './harness/stack';

jest.setTimeout(120_000);

describe('DNS_RESOLVERS naming another DNS server', () => {
  let other: DnsEmulator;
  beforeAll(async () => {
    other = await startDnsEmulator({ port: 0 });
  });
  afterAll(() => other?.stop());
  useOwnStack('mailservice-dns-resolvers-', () => ({ DNS_RESOLVERS: other.address }));

  let harness: typeof import('./harness/stack');
  let dns: typeof import('./harness/dns');
  let tasks: typeof import('./harness/tasks');
  let account: TestAccount;
  // biome-ignore lint/suspicious/noDuplicateTestHooks: useOwnStack's beforeAll runs between the two: the DNS server first, then the stack naming it, then this account on that stack
  beforeAll(async () => {
    harness = await import('./harness/stack');
    dns = await import('./harness/dns');
    tasks = await import('./harness/tasks');
    account = await harness.newAccount();
  });

  /** Publishes records in the other server only (MX as "priority host", as the API lists them). */
  function publishElsewhere(records: Pick<PublicRecord, 'name' | 'type' | 'value' | 'priority'>[]): void {
    for (const record of records)
      other.setRecords({
        name: record.name,
        type: record.type,
        values: [record.type === 'MX' ? `${record.priority ?? 10} ${record.value}` : record.value],
      });
  }

  /** The local cloud's own DNS emulator holds nothing under `name`. */
  async function notInTheStacksDns(name: string): Promise<void> {
    const listed = await harness.api('GET', `/_local/dns/records?name=${encodeURIComponent(name)}`);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(name);
  }

  function sesClient(): SESv2Client {
    const { info } = harness.stack();
    return new SESv2Client({
      endpoint: info.endpoints.sesv2,
      region: info.region,
      credentials: { accessKeyId: info.env.AWS_ACCESS_KEY_ID!, secretAccessKey: info.env.AWS_SECRET_ACCESS_KEY! },
    });
  }

  it('the stack reads the other server: its functions are given it', () => {
    expect(harness.stack().info.env.DNS_RESOLVERS).toBe(other.address);
  });

  it('a domain whose records are only in the other server is verified, by the product and by the local SES (DKIM and MAIL FROM)', async () => {
    const name = dns.uniqueDomain();
    const added = await harness.api('POST', '/domains', { key: account.key, body: { name } });
    expect(added.status).toBe(201);
    publishElsewhere(added.body.domain.records);
    await notInTheStacksDns(name);

    const verified = await harness.api('POST', `/domains/${added.body.domain.id}`, { key: account.key, body: { action: 'verify' } });
    expect(verified.status).toBe(200);
    expect(verified.body.domain).toMatchObject({ status: 'verified', provider: { status: 'verified' } });

    const ses = sesClient();
    try {
      const identity = await ses.send(new GetEmailIdentityCommand({ EmailIdentity: name }));
      expect(identity.VerifiedForSendingStatus).toBe(true);
      expect(identity.DkimAttributes?.Status).toBe('SUCCESS');
      // rp.<domain> is a CNAME (in the other server) to the operator's MAIL FROM host, whose MX the local cloud publishes in its own DNS.
      expect(identity.MailFromAttributes).toMatchObject({
        MailFromDomain: expect.stringMatching(new RegExp(`\\.${name.replace(/\./g, '\\.')}$`)),
        MailFromDomainStatus: 'SUCCESS',
      });
    } finally {
      ses.destroy();
    }

    const sent = await harness.api('POST', '/emails', {
      key: account.key,
      body: { from: `hello@${name}`, to: account.email, subject: 'One DNS', text: 'Hello' },
    });
    expect(sent.status).toBe(200);
    await harness.waitForStatus(account, sent.body.id, 'delivered', 60_000);
  });

  it('the sandbox sender, whose records the local cloud publishes in its own DNS emulator, still sends', async () => {
    const sent = await harness.api('POST', '/emails', {
      key: account.key,
      body: {
        from: `hello@${harness.stack().info.env.SANDBOX_DOMAIN ?? 'sandbox.mailservice.dev'}`,
        to: account.email,
        subject: 'Sandbox',
        text: 'Hello',
      },
    });
    expect(sent.status).toBe(200);
    await harness.waitForStatus(account, sent.body.id, 'delivered', 60_000);
  });

  it("a hosted MTA-STS policy's certificate is issued once its validation CNAME is in the other server (the local ACM reads it there)", async () => {
    const account = await harness.newAccount(); // a free plan's one domain each
    const name = dns.uniqueDomain();
    const added = await harness.api('POST', '/domains', { key: account.key, body: { name, inbound_enabled: true } });
    expect(added.status).toBe(201);
    publishElsewhere(added.body.domain.records);
    const verified = await harness.api('POST', `/domains/${added.body.domain.id}`, { key: account.key, body: { action: 'verify' } });
    expect(verified.body.domain.status).toBe('verified');
    const domainId = added.body.domain.id as string;
    const hosting = async () => (await harness.api('GET', `/domains/${domainId}/mta-sts`, { key: account.key })).body;
    const validationOf = (body: any) =>
      (body.records as { purpose: string; type: 'CNAME'; name: string; value: string; status: string }[]).find(
        (record) => record.purpose === 'certificate_validation',
      );

    expect((await harness.api('PUT', `/domains/${domainId}/mta-sts`, { key: account.key, body: { mode: 'testing' } })).status).toBe(200);
    // The domain-health task's steps, a pass asked for before each look instead of its timer (10 s on a stack of a file's own).
    const listed = await tasks.waitWithTask(
      'domain-health',
      async () => validationOf(await hosting()),
      'the validation record to be listed',
      60_000,
    );
    publishElsewhere([listed]);
    await notInTheStacksDns(listed.name);
    // PUT again (same body): the next step due now.
    expect((await harness.api('PUT', `/domains/${domainId}/mta-sts`, { key: account.key, body: { mode: 'testing' } })).status).toBe(200);
    const issued = await tasks.waitWithTask(
      'domain-health',
      async () => {
        const body = await hosting();
        return body.status === 'pending_dns' ? body : undefined;
      },
      'the certificate to be issued (pending_dns)',
      60_000,
    );
    expect(validationOf(issued)!.status).toBe('verified');
  });
});
