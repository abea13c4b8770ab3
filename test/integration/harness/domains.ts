/** Sending domains for tests: added through the API, their records published in the DNS emulator, verified. */
import { randomUUID } from 'node:crypto';
import { publishAll, uniqueDomain, type PublicRecord } from './dns';
import { api, type TestAccount } from './stack';

export interface VerifiedDomain {
  id: string;
  name: string;
}

/** A verified domain of the account (account-wide); `settings` are then PATCHed (open_tracking, tls_mode, ...). */
export async function verifiedDomain(account: TestAccount, settings?: Record<string, unknown>): Promise<VerifiedDomain> {
  const name = uniqueDomain();
  const added = await api('POST', '/domains', { key: account.key, body: { name } });
  expect(added.status).toBe(201);
  await publishAll(added.body.domain.records);
  const verified = await api('POST', `/domains/${added.body.domain.id}`, { key: account.key, body: { action: 'verify' } });
  expect(verified.body.domain.status).toBe('verified');
  if (settings) {
    const patched = await api('PATCH', `/domains/${added.body.domain.id}`, { key: account.key, body: settings });
    expect(patched.status).toBe(200);
    expect(patched.body.domain).toMatchObject(settings);
  }
  return { id: added.body.domain.id, name };
}

/**
 * A domain of the account whose records all checked out at its verify while SES still verifies it
 * (`status: pending`, `provider.status: pending`): the stack's SES verifies `*.ses-verifies-later.test`
 * no sooner than 4 s after registration (harness/global-setup.ts). `checked` is the verify's answer.
 */
export async function providerPendingDomain(account: TestAccount): Promise<VerifiedDomain & { records: PublicRecord[]; checked: any }> {
  const name = `d${randomUUID().slice(0, 8)}.ses-verifies-later.test`;
  const added = await api('POST', '/domains', { key: account.key, body: { name } });
  expect(added.status).toBe(201);
  await publishAll(added.body.domain.records);
  const checked = await api('POST', `/domains/${added.body.domain.id}`, { key: account.key, body: { action: 'verify' } });
  expect(checked.status).toBe(200);
  expect(checked.body.domain).toMatchObject({ status: 'pending', provider: { status: 'pending' } });
  return { id: added.body.domain.id, name, records: added.body.domain.records, checked: checked.body.domain };
}
