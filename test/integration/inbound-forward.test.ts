/**
 * Forward routes end to end on the local cloud (issue 50 item 5; docs/inbound.md, "Forwarding"): mail to
 * `billing@inbound.<domain>` from a stranger whose domain publishes DMARC p=reject is recorded and sent on to the
 * route's address through the send core, From the receiving domain's own sending domain with the stranger in
 * Reply-To and ARC-sealed with the domain's key; judged at the receiving side by mailauth (SPF for SES's address and
 * the MAIL FROM domain SES sends from, DKIM, DMARC, ARC), the forward passes SPF and DMARC alignment and its ARC chain. A key that may not send from the domain may not
 * set a forward route; a message already forwarded by the same address is not forwarded again (a loop).
 */
import { authenticate } from 'mailauth';
import { localResolver } from './harness/dns';
import { mxTransport, receivedIds, receivingDomain, senderDomain, waitForReceived } from './harness/inbound';
import { api, newAccount, sesMessagesFor, waitFor, type TestAccount } from './harness/stack';

/** The forward's email, once the inbound worker sent it (listed with its recipient). */
async function forwardedEmail(account: TestAccount, to: string): Promise<{ id: string; from: string }> {
  return waitFor(
    async () => {
      const listed = await api('GET', '/emails?limit=20', { key: account.key });
      return (listed.body.emails as { id: string; from: string; to: string[] }[]).find((email) => email.to.includes(to));
    },
    `the forward to ${to}`,
    30_000,
  );
}

describe('inbound forward routes', () => {
  let account: TestAccount;
  let inbox: Awaited<ReturnType<typeof receivingDomain>>;

  beforeAll(async () => {
    account = await newAccount({ plan: 'pro', paymentMethod: true });
    inbox = await receivingDomain(account);
  });

  it('forwards from the domain itself, and the forward passes SPF and DMARC at the receiving side', async () => {
    const target = `ops-${Date.now().toString(36)}@example.org`;
    const set = await api('PUT', `/domains/${inbox.id}/inbound-routes`, {
      key: account.key,
      body: { routes: [{ match: { recipient: 'billing' }, action: { type: 'forward', to: [target.toUpperCase()] } }] },
    });
    expect(set.status).toBe(200);
    expect(set.body.routes[0].action).toEqual({ type: 'forward', to: [target] });

    // A stranger whose domain's DMARC is p=reject: forwarded as it is, it would fail DMARC at the target.
    const stranger = await senderDomain();
    const sent = await mxTransport({
      dkim: { domainName: stranger.name, keySelector: stranger.selector, privateKey: stranger.privateKeyPem },
    }).sendMail({
      envelope: { from: `zoe@${stranger.name}`, to: [inbox.address('billing')] },
      from: `Zoë Ålvarez <zoe@${stranger.name}>`,
      to: inbox.address('billing'),
      subject: 'Invoice 42',
      text: 'Please find the invoice attached.\n',
    });
    const [receivedId] = receivedIds(sent.response);
    const received = await waitForReceived(account, receivedId!);
    expect(received.authentication.dmarc).toMatchObject({ result: 'pass' });

    const forward = await forwardedEmail(account, target);
    expect(forward.from).toBe(`"Zoë Ålvarez via ${inbox.address('billing')}" <billing@${inbox.name}>`);
    const [message] = await waitFor(async () => {
      const messages = await sesMessagesFor(forward.id);
      return messages.length ? messages : undefined;
    }, 'SES’s message of the forward');
    const raw = Buffer.from(message!.raw_base64, 'base64');
    const header = raw.toString('latin1').split('\r\n\r\n')[0]!;
    expect(header).toMatch(/^From: =\?UTF-8\?B\?/m);
    expect(header).toContain(`<billing@${inbox.name}>`);
    expect(header).toMatch(new RegExp(`^Reply-To: .*<zoe@${stranger.name.replace(/\./g, '\\.')}>`, 'm'));
    expect(header).toMatch(new RegExp(`^X-Forwarded-To: ${target}`, 'm'));
    // The stranger's signature is gone (the one left is SES's, with the domain's key), the body kept.
    const fields = header.split(/\r\n(?![ \t])/);
    const signatures = fields.filter((field) => /^DKIM-Signature:/i.test(field));
    expect(signatures).toHaveLength(1);
    expect(signatures[0]).toMatch(new RegExp(`\\bd=${inbox.name.replace(/\./g, '\\.')};`));
    expect(raw.toString('utf8')).toContain('Please find the invoice attached.');

    // The receiving side: SES sent it from one of its addresses (amazonses.com's SPF) with the domain's MAIL FROM.
    const mailFrom = `bounce@rp.${inbox.name}`;
    const resolver = localResolver();
    const judged = await authenticate(raw, {
      ip: '54.240.8.10',
      helo: 'a8-10.smtp-out.amazonses.com',
      sender: mailFrom,
      mta: 'mx.example.org',
      resolver: (name: string, rrtype: string) => resolver.resolve(name, rrtype as 'TXT') as Promise<never>,
    });
    const { spf, dmarc } = judged;
    if (!spf || !dmarc) throw new Error('mailauth ran no SPF or DMARC check');
    expect(spf.status.result).toBe('pass');
    expect(judged.dkim.results.map((result) => [result.signingDomain, result.status.result])).toContainEqual([inbox.name, 'pass']);
    expect(dmarc.status.result).toBe('pass');
    // The forward's ARC set (the domain's key, instance 1) validates, and tells what the original passed at our MX.
    expect(judged.arc ? judged.arc.status.result : 'no ARC check').toBe('pass');
    const seal = fields.find((field) => field.startsWith('ARC-Seal:'));
    expect(seal).toMatch(new RegExp(`^ARC-Seal: i=1; a=rsa-sha256; [^]*cv=none;[^]*\\bd=${inbox.name.replace(/\./g, '\\.')};`));
    expect(header).toMatch(/^ARC-Authentication-Results: i=1; [^;]+; spf=pass smtp\.mailfrom=[^;]+;\r\n dkim=pass header\.d=/m);
    // Aligned both ways (relaxed): SPF by the MAIL FROM domain under the From's, DKIM by the From's own.
    expect(dmarc.alignment).toMatchObject({ spf: { result: `rp.${inbox.name}` }, dkim: { result: inbox.name } });
  });

  it('takes a forward route only from a key that may send from the domain', async () => {
    const route = [{ match: { recipient: 'x' }, action: { type: 'forward', to: ['a@example.org'] } }];
    const domainsOnly = await api('POST', '/api-keys', { key: account.key, body: { name: 'domains', scopes: ['domains:write'] } });
    const elsewhere = await api('POST', '/api-keys', { key: account.key, body: { name: 'elsewhere', allowed_domains: ['other.example'] } });
    const noSend = await api('PUT', `/domains/${inbox.id}/inbound-routes`, { key: domainsOnly.body.secret, body: { routes: route } });
    expect({ status: noSend.status, code: noSend.body.error?.code }).toEqual({ status: 403, code: 'insufficient_scope' });
    const otherDomain = await api('PUT', `/domains/${inbox.id}/inbound-routes`, { key: elsewhere.body.secret, body: { routes: route } });
    expect({ status: otherDomain.status, code: otherDomain.body.error?.code }).toEqual({ status: 403, code: 'domain_not_allowed' });
    const tooMany = await api('PUT', `/domains/${inbox.id}/inbound-routes`, {
      key: account.key,
      body: {
        routes: [
          {
            match: { recipient: 'x' },
            action: { type: 'forward', to: ['a@b.example', 'c@b.example', 'd@b.example', 'e@b.example', 'f@b.example', 'g@b.example'] },
          },
        ],
      },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.fields[0]).toMatchObject({ field: 'routes.0.action.to' });
  });
});
