/**
 * The product on an SES that verifies identities later (docs/domains.md, "Registration with the mail
 * provider (SES)"; docs/local-cloud/ses.md, "Identity verification"): a domain whose records all check out
 * stays `pending` while SES says PENDING, and becomes `verified` once SES does (on GET and on verify; by
 * itself through the reconciler: domain-provider-completion.test.ts);
 * a non-ASCII display name reaches SES as the bare address ("Address encoding").
 * The stack's SES verifies `*.ses-verifies-later.test` 4 s after registration (harness/global-setup.ts).
 */
import { providerPendingDomain, verifiedDomain } from './harness/domains';
import { api, newAccount, sesMessagesFor, waitFor, waitForStatus, type TestAccount } from './harness/stack';

let account: TestAccount;
beforeAll(async () => {
  account = await newAccount();
});

describe('a domain SES has not verified yet', () => {
  it('stays pending with every record verified and provider pending, refuses sends, then becomes verified', async () => {
    const { id, name, checked } = await providerPendingDomain(account);
    expect(checked).toMatchObject({
      status: 'pending',
      verified_at: null,
      provider: { status: 'pending', message: expect.stringContaining('PENDING') },
    });
    expect(checked.records.filter((r: { required: boolean }) => r.required).every((r: { status: string }) => r.status === 'verified')).toBe(
      true,
    );

    const refused = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hello@${name}`, to: account.email, subject: 'too early', text: 'x' },
    });
    expect(refused.status).toBe(403);

    // SES confirms: the next GET records it (no verify needed).
    const verified = await waitFor(
      async () => {
        const got = await api('GET', `/domains/${id}`, { key: account.key });
        if (got.body.domain.status !== 'verified')
          throw new Error(`domain is ${got.body.domain.status}, provider ${JSON.stringify(got.body.domain.provider)}`);
        return got.body.domain;
      },
      'SES to verify the domain',
      30_000,
    );
    expect(verified).toMatchObject({ status: 'verified', provider: { status: 'verified' }, verified_at: expect.any(String) });

    // Verifying again leaves SES's verification alone: still verified at once.
    const again = await api('POST', `/domains/${id}`, { key: account.key, body: { action: 'verify' } });
    expect(again.body.domain).toMatchObject({ status: 'verified', provider: { status: 'verified' } });
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hello@${name}`, to: account.email, subject: 'now', text: 'x' },
    });
    expect(sent.status).toBe(200);
    await waitForStatus(account, sent.body.id, 'delivered');
  });
});

describe('address encoding', () => {
  it('sends a non-ASCII display name: SES gets the bare address, the message keeps the encoded name', async () => {
    const owner = await newAccount();
    const domain = await verifiedDomain(owner);
    const sent = await api('POST', '/emails', {
      key: owner.key,
      body: { from: { email: `hello@${domain.name}`, name: 'José Ñandú' }, to: owner.email, subject: 'Olá', text: 'x' },
    });
    expect(sent.status).toBe(200);
    await waitForStatus(owner, sent.body.id, 'delivered');
    const [message] = await sesMessagesFor(sent.body.id);
    expect(message!.from).toBe(`hello@${domain.name}`);
    expect(message!.raw).toMatch(/^From: =\?UTF-8\?[BQ]\?[^\r\n]+\?=\s+<hello@/im);
  });
});
