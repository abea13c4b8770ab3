/**
 * A domain's tls_mode (PATCH /domains/{id}, docs/domains.md): `enforced` sends through the TLS-required
 * configuration set (SES DeliveryOptions.TlsPolicy REQUIRE), `opportunistic` through the main one; the
 * worker sees a change within the domain facts' cache time (60 s), so this test uses a fresh domain each.
 */
import { GetConfigurationSetCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { tlsRequiredConfigurationSet } from '#shared/adapters/aws/ses-configuration-sets';
import { verifiedDomain } from './harness/domains';
import { api, newAccount, sesMessagesFor, stack, waitForStatus } from './harness/stack';

describe('tls_mode', () => {
  it('enforced: the message goes through the TLS-required configuration set, which requires TLS', async () => {
    const account = await newAccount({ plan: 'pro', paymentMethod: true });
    const main = stack().info.env.SES_CONFIGURATION_SET!;
    const { name: enforced } = await verifiedDomain(account, { tls_mode: 'enforced' });
    const { name: opportunistic } = await verifiedDomain(account, { tls_mode: 'opportunistic' });
    const strict = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${enforced}`, to: 'x@example.org', subject: 'TLS', text: 't' },
    });
    const relaxed = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${opportunistic}`, to: 'x@example.org', subject: 'TLS', text: 't' },
    });
    await waitForStatus(account, strict.body.id, 'delivered');
    await waitForStatus(account, relaxed.body.id, 'delivered');
    expect((await sesMessagesFor(strict.body.id))[0]!.configuration_set).toBe(tlsRequiredConfigurationSet(main));
    expect((await sesMessagesFor(relaxed.body.id))[0]!.configuration_set).toBe(main);
    // The twin set exists in SES with the REQUIRE policy (and the same event destination: delivered above).
    const ses = new SESv2Client({ endpoint: stack().info.env.AWS_ENDPOINT_URL_SESV2, region: process.env.AWS_REGION ?? 'us-east-1' });
    const twin = await ses.send(new GetConfigurationSetCommand({ ConfigurationSetName: tlsRequiredConfigurationSet(main) }));
    expect(twin.DeliveryOptions?.TlsPolicy).toBe('REQUIRE');
    ses.destroy();
  });
});
