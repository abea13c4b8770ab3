/**
 * `PATCH /domains/{id} {"inbound_enabled": true | false}`: receiving turned on after a domain was added
 * (the MX record of inbound.<domain> appears, pending until a verify finds it, and mail is then received)
 * and off again (the record and the subdomain go, mail is refused), bad values refused with the error
 * envelope, and concurrent PATCHes and verifies that never leave the flag and the records disagreeing.
 */
import { publish, publishAll, uniqueDomain, type PublicRecord } from './harness/dns';
import { mxTransport, receivedIds, waitForReceived } from './harness/inbound';
import { api, newAccount, type TestAccount } from './harness/stack';

interface PublicDomain {
  id: string;
  status: string;
  inbound_enabled: boolean;
  inbound_subdomain: string | null;
  records: PublicRecord[];
}

const mxRecords = (domain: PublicDomain) => domain.records.filter((record) => record.purpose === 'inbound_mx');

async function verifiedDomain(account: TestAccount, body: Record<string, unknown> = {}): Promise<{ name: string; domain: PublicDomain }> {
  const name = uniqueDomain();
  const added = await api('POST', '/domains', { key: account.key, body: { name, ...body } });
  expect(added.status).toBe(201);
  await publishAll(added.body.domain.records);
  const verified = await api('POST', `/domains/${added.body.domain.id}`, { key: account.key, body: { action: 'verify' } });
  expect(verified.body.domain.status).toBe('verified');
  return { name, domain: verified.body.domain };
}

const patch = (account: TestAccount, id: string, body: unknown) => api('PATCH', `/domains/${id}`, { key: account.key, body });
const verify = (account: TestAccount, id: string) => api('POST', `/domains/${id}`, { key: account.key, body: { action: 'verify' } });

describe('turning receiving on and off after a domain is added', () => {
  let account: TestAccount;

  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true });
  });

  it('on: the MX record appears (pending, the domain stays verified), verifies once published, and mail is received', async () => {
    const { name, domain } = await verifiedDomain(account);
    expect(domain).toMatchObject({ inbound_enabled: false, inbound_subdomain: null });
    expect(mxRecords(domain)).toEqual([]);

    const enabled = await patch(account, domain.id, { inbound_enabled: true });
    expect(enabled.status).toBe(200);
    expect(enabled.body.domain).toMatchObject({ status: 'verified', inbound_enabled: true, inbound_subdomain: `inbound.${name}` });
    expect(mxRecords(enabled.body.domain)).toEqual([
      expect.objectContaining({
        type: 'MX',
        name: `inbound.${name}`,
        value: expect.any(String),
        priority: 10,
        required: false,
        status: 'pending',
      }),
    ]);
    // The other records keep what the last verify found.
    expect(enabled.body.domain.records.filter((record: PublicRecord) => record.purpose !== 'inbound_mx')).toEqual(domain.records);
    // Idempotent: asking again changes nothing (one MX record).
    const again = await patch(account, domain.id, { inbound_enabled: true });
    expect(mxRecords(again.body.domain)).toHaveLength(1);
    expect((await api('GET', `/domains/${domain.id}`, { key: account.key })).body.domain).toMatchObject({
      inbound_enabled: true,
      inbound_subdomain: `inbound.${name}`,
    });

    const [mx] = mxRecords(enabled.body.domain);
    await publish(mx!.name, 'MX', [`${mx!.priority} ${mx!.value}`]);
    const checked = await verify(account, domain.id);
    expect(checked.body.domain.status).toBe('verified');
    expect(mxRecords(checked.body.domain)).toEqual([expect.objectContaining({ status: 'verified' })]);

    const info = await mxTransport().sendMail({
      from: 'someone@example.org',
      to: `support@inbound.${name}`,
      subject: 'after turning it on',
      text: 'hello',
    });
    expect(info.response).toMatch(/^250 /);
    const [id] = receivedIds(info.response);
    expect(await waitForReceived(account, id!)).toMatchObject({ subject: 'after turning it on', rcpt_to: [`support@inbound.${name}`] });
  });

  it('off: the MX record and the subdomain go, a verify does not bring them back, and mail is refused', async () => {
    const { name, domain } = await verifiedDomain(account, { inbound_enabled: true });
    expect(mxRecords(domain)).toHaveLength(1);

    const disabled = await patch(account, domain.id, { inbound_enabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.body.domain).toMatchObject({ status: 'verified', inbound_enabled: false, inbound_subdomain: null });
    expect(mxRecords(disabled.body.domain)).toEqual([]);
    expect(disabled.body.domain.records).toEqual(domain.records.filter((record) => record.purpose !== 'inbound_mx'));

    const checked = await verify(account, domain.id);
    expect(checked.body.domain).toMatchObject({ status: 'verified', inbound_enabled: false });
    expect(mxRecords(checked.body.domain)).toEqual([]);

    // Never received on before: nothing cached, refused at once (no open relay).
    await expect(
      mxTransport().sendMail({
        from: 'someone@example.org',
        to: `support@inbound.${name}`,
        subject: 'after turning it off',
        text: 'hello',
      }),
    ).rejects.toMatchObject({
      responseCode: 550,
    });
  });

  it('refuses a value that is not a boolean with the error envelope, names the field, and changes nothing', async () => {
    const { domain } = await verifiedDomain(account);
    for (const value of ['yes', 1, null, {}]) {
      const response = await patch(account, domain.id, { inbound_enabled: value });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'validation_error' });
      expect(JSON.stringify(response.body.error)).toContain('inbound_enabled');
    }
    const other = await newAccount();
    expect((await patch(other, domain.id, { inbound_enabled: true })).status).toBe(404);
    expect((await api('GET', `/domains/${domain.id}`, { key: account.key })).body.domain).toMatchObject({
      inbound_enabled: false,
      records: domain.records,
    });
  });

  it('concurrent PATCHes and verifies leave the flag and the records in agreement', async () => {
    const { name, domain } = await verifiedDomain(account);
    for (let round = 0; round < 4; round++) {
      const requests = Array.from({ length: 8 }, (_, n) =>
        n % 3 === 2 ? verify(account, domain.id) : patch(account, domain.id, { inbound_enabled: (n + round) % 2 === 0 }),
      );
      const responses = await Promise.all(requests);
      for (const response of responses) expect(response.status).toBe(200);
      const current = (await api('GET', `/domains/${domain.id}`, { key: account.key })).body.domain as PublicDomain;
      expect(mxRecords(current)).toHaveLength(current.inbound_enabled ? 1 : 0);
      expect(current.inbound_subdomain).toBe(current.inbound_enabled ? `inbound.${name}` : null);
      expect(current.records.filter((record) => record.purpose !== 'inbound_mx').map((record) => record.purpose)).toEqual([
        'ownership',
        'dkim',
        'return_path',
        'spf',
        'dmarc',
      ]);
      // Each PATCH answered the state it asked for.
      responses.forEach((response, n) => {
        if (n % 3 !== 2) expect(response.body.domain.inbound_enabled).toBe((n + round) % 2 === 0);
        expect(mxRecords(response.body.domain)).toHaveLength(response.body.domain.inbound_enabled ? 1 : 0);
      });
    }
  }, 60_000);
});
