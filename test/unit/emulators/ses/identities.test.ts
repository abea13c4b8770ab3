/**
 * The SES emulator's email identities through the real SESv2 client: BYODKIM keys validated as SES
 * does, verification against the DNS emulator (PENDING until the records show), MAIL FROM, listing,
 * deletion, persistence, the viewer routes; SendEmail's identity checks (sandbox included) and ASCII-only
 * address parameters; and the SesMailer adapter's registerDomain / domainState / unregisterDomain against it.
 */
import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetEmailIdentityCommand,
  ListEmailIdentitiesCommand,
  PutEmailIdentityDkimSigningAttributesCommand,
  PutEmailIdentityMailFromAttributesCommand,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SesMailer, sesSigningKey } from '#shared/adapters/aws/ses-mailer';
import { MailerError } from '#shared/ports/mail';
import { Harness, rawMessage } from './harness';

/** Publishes a BYODKIM public key where SES looks for it: TXT `<selector>._domainkey.<domain>`. */
const publishDkim = (domain: string, selector: string, publicKey: string) =>
  h.dns.setRecords({ name: `${selector}._domainkey.${domain}`, type: 'TXT', values: [`v=DKIM1; k=rsa; p=${publicKey}`] });

function rsaKey(modulusLength: number) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength });
  return {
    pem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    pkcs1: privateKey.export({ type: 'pkcs1', format: 'der' }).toString('base64'),
    pkcs8: privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  };
}

const key = rsaKey(2048);
const otherKey = rsaKey(1024);

let h: Harness;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'ses-identities-'));
  h = await Harness.start({ dataDir, refuseIdentities: /\.refused\.test$/ });
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

describe('CreateEmailIdentity and GetEmailIdentity', () => {
  it('creates a BYODKIM domain identity that stays PENDING until DNS shows its key, then is verified for sending', async () => {
    const created = await h.client.send(
      new CreateEmailIdentityCommand({
        EmailIdentity: 'byo.example.com',
        DkimSigningAttributes: { DomainSigningSelector: 'sel1', DomainSigningPrivateKey: key.pkcs1 },
      }),
    );
    expect(created).toMatchObject({
      IdentityType: 'DOMAIN',
      VerifiedForSendingStatus: false,
      DkimAttributes: { SigningEnabled: true, Status: 'PENDING', Tokens: ['sel1'], SigningAttributesOrigin: 'EXTERNAL' },
    });
    const pending = await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'byo.example.com' }));
    expect(pending).toMatchObject({
      VerifiedForSendingStatus: false,
      VerificationStatus: 'PENDING',
      DkimAttributes: { Status: 'PENDING' },
    });
    // Another key at the selector is not ours: still PENDING.
    publishDkim('byo.example.com', 'sel1', otherKey.publicKey);
    expect((await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'byo.example.com' }))).VerificationStatus).toBe('PENDING');
    expect(h.ses.listIdentities().find((i) => i.identity === 'byo.example.com')?.verification_status).toBe('PENDING');

    publishDkim('byo.example.com', 'sel1', key.publicKey);
    const got = await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'byo.example.com' }));
    expect(got).toMatchObject({
      IdentityType: 'DOMAIN',
      VerifiedForSendingStatus: true,
      VerificationStatus: 'SUCCESS',
      DkimAttributes: { Status: 'SUCCESS', Tokens: ['sel1'], SigningAttributesOrigin: 'EXTERNAL' },
    });
    expect(got.MailFromAttributes).toBeUndefined();

    const viewed = h.ses.listIdentities().find((i) => i.identity === 'byo.example.com');
    expect(viewed).toMatchObject({
      identity_type: 'DOMAIN',
      dkim_origin: 'EXTERNAL',
      dkim_selector: 'sel1',
      dkim_public_key: key.publicKey,
      dkim_key_bits: 2048,
      mail_from_domain: null,
    });
    expect(JSON.stringify(h.ses.listIdentities())).not.toContain(key.pkcs1.slice(0, 40));
  });

  it('accepts a PKCS#8 key and a 1024-bit key; refuses a duplicate, whatever its case', async () => {
    await h.client.send(
      new CreateEmailIdentityCommand({
        EmailIdentity: 'pkcs8.example.com',
        DkimSigningAttributes: { DomainSigningSelector: 's', DomainSigningPrivateKey: key.pkcs8 },
      }),
    );
    await h.client.send(
      new CreateEmailIdentityCommand({
        EmailIdentity: 'short.example.com',
        DkimSigningAttributes: { DomainSigningSelector: 's', DomainSigningPrivateKey: otherKey.pkcs1 },
      }),
    );
    expect(h.ses.listIdentities().find((i) => i.identity === 'short.example.com')?.dkim_key_bits).toBe(1024);
    const duplicate = await errorOf(h.client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'PKCS8.example.com' })));
    expect(duplicate.name).toBe('AlreadyExistsException');
  });

  it('refuses keys SES would refuse, with BadRequestException', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      .privateKey.export({ type: 'pkcs8', format: 'der' })
      .toString('base64');
    const small = generateKeyPairSync('rsa', { modulusLength: 512 }).privateKey.export({ type: 'pkcs1', format: 'der' }).toString('base64');
    const cases: [string, string, RegExp][] = [
      ['PEM armour', key.pem, /base64 of a DER-encoded RSA private key/],
      ['line breaks', key.pkcs1.replace(/(.{64})/g, '$1\n'), /base64 of a DER-encoded RSA private key/],
      ['not a key', Buffer.from('certainly not a key').toString('base64'), /base64 of a DER-encoded RSA private key/],
      ['an EC key', ec, /base64 of a DER-encoded RSA private key/],
      ['a 512-bit key', small, /1024- or 2048-bit RSA key, got 512 bits/],
    ];
    for (const [what, value, message] of cases) {
      const error = await errorOf(
        h.client.send(
          new CreateEmailIdentityCommand({
            EmailIdentity: 'bad-key.example.com',
            DkimSigningAttributes: { DomainSigningSelector: 's', DomainSigningPrivateKey: value },
          }),
        ),
      );
      expect({ what, name: error.name, status: error.status }).toEqual({ what, name: 'BadRequestException', status: 400 });
      expect(error.message).toMatch(message);
    }
    const noSelector = await errorOf(
      h.client.send(
        new CreateEmailIdentityCommand({
          EmailIdentity: 'bad-key.example.com',
          DkimSigningAttributes: { DomainSigningPrivateKey: key.pkcs1 },
        }),
      ),
    );
    expect(noSelector).toMatchObject({ name: 'BadRequestException', message: expect.stringContaining('DomainSigningSelector') });
    const badSelector = await errorOf(
      h.client.send(
        new CreateEmailIdentityCommand({
          EmailIdentity: 'bad-key.example.com',
          DkimSigningAttributes: { DomainSigningSelector: '-bad', DomainSigningPrivateKey: key.pkcs1 },
        }),
      ),
    );
    expect(badSelector.name).toBe('BadRequestException');
    expect(h.ses.listIdentities().some((i) => i.identity === 'bad-key.example.com')).toBe(false);
  });

  it('creates Easy DKIM domains and email address identities; refuses invalid names', async () => {
    const easy = await h.client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'easy.example.com' }));
    expect(easy.DkimAttributes).toMatchObject({ SigningAttributesOrigin: 'AWS_SES', Status: 'PENDING' });
    expect(easy.DkimAttributes?.Tokens).toHaveLength(3);
    // Easy DKIM: verified once all three CNAMEs show.
    const [first, ...others] = easy.DkimAttributes!.Tokens!;
    h.dns.setRecords({ name: `${first}._domainkey.easy.example.com`, type: 'CNAME', values: [`${first}.dkim.amazonses.com`] });
    expect((await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'easy.example.com' }))).VerificationStatus).toBe('PENDING');
    for (const token of others)
      h.dns.setRecords({ name: `${token}._domainkey.easy.example.com`, type: 'CNAME', values: [`${token}.dkim.amazonses.com`] });
    expect(await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'easy.example.com' }))).toMatchObject({
      VerifiedForSendingStatus: true,
      DkimAttributes: { Status: 'SUCCESS' },
    });

    // An address is verified by following SES's link (locally: confirmIdentity).
    const address = await h.client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'someone@example.org' }));
    expect(address).toMatchObject({
      IdentityType: 'EMAIL_ADDRESS',
      VerifiedForSendingStatus: false,
      DkimAttributes: { SigningEnabled: false, Status: 'NOT_STARTED' },
    });
    expect((await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'someone@example.org' }))).VerificationStatus).toBe('PENDING');
    expect(h.ses.confirmIdentity('someone@example.org')).toBe(true);
    expect(h.ses.confirmIdentity('nobody@example.org')).toBe(false);
    expect(await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'someone@example.org' }))).toMatchObject({
      IdentityType: 'EMAIL_ADDRESS',
      VerifiedForSendingStatus: true,
    });
    const byoOnAddress = await errorOf(
      h.client.send(
        new CreateEmailIdentityCommand({
          EmailIdentity: 'other@example.org',
          DkimSigningAttributes: { DomainSigningSelector: 's', DomainSigningPrivateKey: key.pkcs1 },
        }),
      ),
    );
    expect(byoOnAddress.name).toBe('BadRequestException');
    expect((await errorOf(h.client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'not a domain' })))).name).toBe(
      'BadRequestException',
    );
    expect((await errorOf(h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'missing.example.com' })))).name).toBe(
      'NotFoundException',
    );
  });

  it('refuses names matching refuseIdentities with LimitExceededException', async () => {
    const refused = await errorOf(h.client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'x.refused.test' })));
    expect(refused.name).toBe('LimitExceededException');
    expect(h.ses.listIdentities().some((i) => i.identity === 'x.refused.test')).toBe(false);
  });
});

describe('PutEmailIdentityDkimSigningAttributes and PutEmailIdentityMailFromAttributes', () => {
  it('replaces the BYODKIM key and selector, or switches to Easy DKIM', async () => {
    await h.client.send(
      new CreateEmailIdentityCommand({
        EmailIdentity: 'rotate.example.com',
        DkimSigningAttributes: { DomainSigningSelector: 'old', DomainSigningPrivateKey: key.pkcs1 },
      }),
    );
    const put = await h.client.send(
      new PutEmailIdentityDkimSigningAttributesCommand({
        EmailIdentity: 'rotate.example.com',
        SigningAttributesOrigin: 'EXTERNAL',
        SigningAttributes: { DomainSigningSelector: 'new', DomainSigningPrivateKey: otherKey.pkcs1 },
      }),
    );
    // New signing attributes restart verification.
    expect(put).toMatchObject({ DkimStatus: 'PENDING', DkimTokens: ['new'] });
    expect(h.ses.listIdentities().find((i) => i.identity === 'rotate.example.com')).toMatchObject({
      dkim_selector: 'new',
      dkim_public_key: otherKey.publicKey,
    });

    const bad = await errorOf(
      h.client.send(
        new PutEmailIdentityDkimSigningAttributesCommand({
          EmailIdentity: 'rotate.example.com',
          SigningAttributesOrigin: 'EXTERNAL',
          SigningAttributes: { DomainSigningSelector: 'x', DomainSigningPrivateKey: 'AAAA' },
        }),
      ),
    );
    expect(bad.name).toBe('BadRequestException');
    expect(h.ses.listIdentities().find((i) => i.identity === 'rotate.example.com')?.dkim_selector).toBe('new');

    const easy = await h.client.send(
      new PutEmailIdentityDkimSigningAttributesCommand({ EmailIdentity: 'rotate.example.com', SigningAttributesOrigin: 'AWS_SES' }),
    );
    expect(easy.DkimTokens).toHaveLength(3);
    expect(
      (await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'rotate.example.com' }))).DkimAttributes?.SigningAttributesOrigin,
    ).toBe('AWS_SES');

    const missing = await errorOf(
      h.client.send(
        new PutEmailIdentityDkimSigningAttributesCommand({
          EmailIdentity: 'nowhere.example.com',
          SigningAttributesOrigin: 'EXTERNAL',
          SigningAttributes: { DomainSigningSelector: 's', DomainSigningPrivateKey: key.pkcs1 },
        }),
      ),
    );
    expect(missing.name).toBe('NotFoundException');
  });

  it('sets and clears a custom MAIL FROM domain, which must be a subdomain', async () => {
    await h.client.send(
      new PutEmailIdentityMailFromAttributesCommand({
        EmailIdentity: 'byo.example.com',
        MailFromDomain: 'rp.byo.example.com',
        BehaviorOnMxFailure: 'USE_DEFAULT_VALUE',
      }),
    );
    const got = await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'byo.example.com' }));
    expect(got.MailFromAttributes).toEqual({
      MailFromDomain: 'rp.byo.example.com',
      MailFromDomainStatus: 'PENDING',
      BehaviorOnMxFailure: 'USE_DEFAULT_VALUE',
    });
    // SES finds the MAIL FROM domain's MX (here through a CNAME, as customers publish rp.<domain>).
    h.dns.setRecords({ name: 'rp.byo.example.com', type: 'CNAME', values: ['rp.operator.example'] });
    h.dns.setRecords({ name: 'rp.operator.example', type: 'MX', values: ['10 feedback-smtp.us-east-1.amazonses.com'] });
    expect(
      (await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'byo.example.com' }))).MailFromAttributes?.MailFromDomainStatus,
    ).toBe('SUCCESS');
    expect(h.ses.listIdentities().find((i) => i.identity === 'byo.example.com')).toMatchObject({
      mail_from_domain: 'rp.byo.example.com',
      behavior_on_mx_failure: 'USE_DEFAULT_VALUE',
    });

    const outside = await errorOf(
      h.client.send(
        new PutEmailIdentityMailFromAttributesCommand({ EmailIdentity: 'byo.example.com', MailFromDomain: 'rp.elsewhere.example' }),
      ),
    );
    expect(outside).toMatchObject({ name: 'BadRequestException', message: expect.stringContaining('subdomain of byo.example.com') });
    const behavior = await errorOf(
      h.client.send(
        new PutEmailIdentityMailFromAttributesCommand({
          EmailIdentity: 'byo.example.com',
          MailFromDomain: 'rp.byo.example.com',
          BehaviorOnMxFailure: 'BOUNCE' as never,
        }),
      ),
    );
    expect(behavior.name).toBe('BadRequestException');
    const missing = await errorOf(
      h.client.send(
        new PutEmailIdentityMailFromAttributesCommand({ EmailIdentity: 'nowhere.example.com', MailFromDomain: 'rp.nowhere.example.com' }),
      ),
    );
    expect(missing.name).toBe('NotFoundException');

    await h.client.send(
      new PutEmailIdentityMailFromAttributesCommand({ EmailIdentity: 'short.example.com', MailFromDomain: 'bounce.short.example.com' }),
    );
    await h.client.send(new PutEmailIdentityMailFromAttributesCommand({ EmailIdentity: 'short.example.com' }));
    expect((await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'short.example.com' }))).MailFromAttributes).toBeUndefined();
  });
});

describe('ListEmailIdentities, DeleteEmailIdentity and the viewer', () => {
  it('lists identities by name with paging, deletes them once', async () => {
    const all = await h.client.send(new ListEmailIdentitiesCommand({}));
    const names = all.EmailIdentities!.map((i) => i.IdentityName);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['byo.example.com', 'someone@example.org']));
    expect(all.EmailIdentities!.find((i) => i.IdentityName === 'byo.example.com')).toEqual({
      IdentityType: 'DOMAIN',
      IdentityName: 'byo.example.com',
      SendingEnabled: true,
      VerificationStatus: 'SUCCESS',
    });

    const page1 = await h.client.send(new ListEmailIdentitiesCommand({ PageSize: 2 }));
    expect(page1.EmailIdentities).toHaveLength(2);
    const page2 = await h.client.send(new ListEmailIdentitiesCommand({ PageSize: 1000, NextToken: page1.NextToken }));
    expect([...page1.EmailIdentities!, ...page2.EmailIdentities!].map((i) => i.IdentityName)).toEqual(names);
    expect(page2.NextToken).toBeUndefined();

    // The older SDKs' form: GET /v2/email/identities.
    const older = (await (await fetch(`${h.ses.url}/v2/email/identities?PageSize=1`)).json()) as {
      EmailIdentities: unknown[];
      NextToken?: string;
    };
    expect(older.EmailIdentities).toHaveLength(1);
    expect(older.NextToken).toBeDefined();

    await h.client.send(new DeleteEmailIdentityCommand({ EmailIdentity: 'easy.example.com' }));
    expect((await errorOf(h.client.send(new DeleteEmailIdentityCommand({ EmailIdentity: 'easy.example.com' })))).name).toBe(
      'NotFoundException',
    );
    expect((await errorOf(h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'easy.example.com' })))).name).toBe(
      'NotFoundException',
    );
  });

  it('serves the identities as JSON on its own port', async () => {
    const response = await fetch(`${h.ses.url}/_local/identities`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { identities: { identity: string }[] };
    expect(body.identities).toEqual(h.ses.listIdentities());
    expect(body.identities.map((i) => i.identity)).toContain('byo.example.com');
  });

  it('refuses sends from unverified identities as SES does, and sends from a verified one or its subdomains', async () => {
    const raw = (from: string) => ({
      Content: { Raw: { Data: rawMessage([`From: ${from}`, 'To: b@example.org', 'Subject: s', '', 'x']) } },
    });
    expect(await errorOf(h.client.send(new SendEmailCommand(raw('a@unregistered.example'))))).toEqual({
      name: 'MessageRejected',
      status: 400,
      message: 'Email address is not verified. The following identities failed the check in region US-EAST-1: a@unregistered.example',
    });
    await h.client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'waiting.example.net' }));
    expect(
      (await errorOf(h.client.send(new SendEmailCommand({ FromEmailAddress: 'a@waiting.example.net', ...raw('a@waiting.example.net') }))))
        .name,
    ).toBe('MessageRejected');
    expect((await h.client.send(new SendEmailCommand(raw('a@byo.example.com')))).MessageId).toBeDefined();
    expect((await h.client.send(new SendEmailCommand(raw('a@news.byo.example.com')))).MessageId).toBeDefined();
  });

  it('refuses non-ASCII address parameters (BadRequestException); an RFC 2047 display name passes', async () => {
    const simple = { Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 'x' } } } } };
    const cases: Record<string, unknown>[] = [
      { FromEmailAddress: '"José Ñ" <a@byo.example.com>', Destination: { ToAddresses: ['b@example.org'] } },
      { FromEmailAddress: 'a@byo.example.com', Destination: { ToAddresses: ['Zoë <b@example.org>'] } },
      { FromEmailAddress: 'a@byo.example.com', Destination: { BccAddresses: ['b@exämple.org'] } },
      { FromEmailAddress: 'a@byo.example.com', Destination: { ToAddresses: ['b@example.org'] }, ReplyToAddresses: ['Ré <r@example.org>'] },
    ];
    for (const params of cases) {
      const error = await errorOf(h.client.send(new SendEmailCommand({ ...simple, ...params })));
      expect({ params, name: error.name, message: error.message }).toEqual({
        params,
        name: 'BadRequestException',
        message: expect.stringContaining('non-ASCII'),
      });
    }
    const encoded = await h.client.send(
      new SendEmailCommand({
        ...simple,
        FromEmailAddress: '=?UTF-8?B?Sm9zw6kg0YE=?= <a@byo.example.com>',
        Destination: { ToAddresses: ['b@xn--exmple-cua.org'] },
      }),
    );
    expect(encoded.MessageId).toBeDefined();
  });

  it('keeps identities across a restart (without private keys on disk)', async () => {
    const before = h.ses.listIdentities();
    await h.ses.stop();
    expect(readdirSync(dataDir)).toContain('identities.json');
    expect(readFileSync(path.join(dataDir, 'identities.json'), 'utf8')).not.toContain(key.pkcs1.slice(0, 40));
    await h.startSes({ dataDir, refuseIdentities: /\.refused\.test$/ });
    expect(h.ses.listIdentities()).toEqual(before);
    expect(
      (await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'byo.example.com' }))).MailFromAttributes?.MailFromDomain,
    ).toBe('rp.byo.example.com');
  });
});

describe('SesMailer against the emulator', () => {
  const mailer = (): SesMailer => new SesMailer(h.client, '');

  it('sends the key as base64 of the PKCS#1 DER, without armour', () => {
    const encoded = sesSigningKey(key.pem);
    expect(encoded).toBe(key.pkcs1);
    expect(encoded).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
  });

  it('registers a domain (BYODKIM + MAIL FROM), again idempotently, and unregisters it', async () => {
    const registration = {
      domain: 'mailer.example.com',
      selector: 'svc2611abcdef',
      privateKeyPem: key.pem,
      mailFromDomain: 'rp.mailer.example.com',
    };
    // SES says whether it can send yet: not before it has seen the DKIM record.
    expect(await mailer().registerDomain(registration)).toMatchObject({ status: 'pending', detail: expect.stringContaining('PENDING') });
    expect((await mailer().domainState('mailer.example.com')).status).toBe('pending');
    publishDkim('mailer.example.com', 'svc2611abcdef', key.publicKey);
    expect((await mailer().domainState('mailer.example.com')).status).toBe('verified');
    // Registering again with the same key leaves SES's verification alone (no PutEmailIdentityDkimSigningAttributes).
    const before = h.ses.listIdentities().find((i) => i.identity === 'mailer.example.com')!.updated_at;
    expect((await mailer().registerDomain(registration)).status).toBe('verified');
    expect(h.ses.listIdentities().find((i) => i.identity === 'mailer.example.com')!.updated_at).toBe(before);
    expect(h.ses.listIdentities().find((i) => i.identity === 'mailer.example.com')?.verification_status).toBe('SUCCESS');
    const expected = {
      identity: 'mailer.example.com',
      dkim_origin: 'EXTERNAL',
      dkim_selector: 'svc2611abcdef',
      dkim_public_key: key.publicKey,
      mail_from_domain: 'rp.mailer.example.com',
      behavior_on_mx_failure: 'USE_DEFAULT_VALUE',
    };
    expect(h.ses.listIdentities().filter((i) => i.identity === 'mailer.example.com')).toEqual([expect.objectContaining(expected)]);

    // A re-verification after a key change updates the signing attributes of the existing identity.
    expect((await mailer().registerDomain({ ...registration, selector: 'svc2611zzzzzz', privateKeyPem: otherKey.pem })).status).toBe(
      'pending',
    );
    expect(h.ses.listIdentities().find((i) => i.identity === 'mailer.example.com')).toMatchObject({
      dkim_selector: 'svc2611zzzzzz',
      dkim_public_key: otherKey.publicKey,
    });

    await mailer().unregisterDomain('mailer.example.com');
    expect(h.ses.listIdentities().some((i) => i.identity === 'mailer.example.com')).toBe(false);
    await expect(mailer().unregisterDomain('mailer.example.com')).resolves.toBeUndefined();
  });

  it('turns SES errors into MailerError, classified', async () => {
    const refused = await mailer()
      .registerDomain({ domain: 'mailer.refused.test', selector: 's', privateKeyPem: key.pem, mailFromDomain: 'rp.mailer.refused.test' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MailerError);
    expect(refused).toMatchObject({ permanent: false, message: expect.stringContaining('LimitExceededException') });

    const outside = await mailer()
      .registerDomain({ domain: 'mailer2.example.com', selector: 's', privateKeyPem: key.pem, mailFromDomain: 'rp.other.example' })
      .catch((error: unknown) => error);
    expect(outside).toMatchObject({ name: 'MailerError', permanent: true, message: expect.stringContaining('BadRequestException') });
  });
});

/** A plain-text SendEmail from a@example.com to `to` through `h`'s client. */
function sendText(h: Harness, to: string[]) {
  return h.client.send(
    new SendEmailCommand({
      FromEmailAddress: 'a@example.com',
      Destination: { ToAddresses: to },
      Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 'x' } } } },
    }),
  );
}

describe('sandbox mode', () => {
  let sandbox: Harness;
  beforeAll(async () => {
    sandbox = await Harness.start({ sandbox: true });
  });
  afterAll(async () => {
    await sandbox.stop();
  });

  it('refuses unverified recipients, naming them; verified addresses and domains and the mailbox simulator pass', async () => {
    const send = (to: string[]) => sendText(sandbox, to);
    expect(await errorOf(send(['friend@example.org', 'success@simulator.amazonses.com', 'other@example.net']))).toEqual({
      name: 'MessageRejected',
      status: 400,
      message:
        'Email address is not verified. The following identities failed the check in region US-EAST-1: friend@example.org, other@example.net',
    });
    await sandbox.client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'friend@example.org' }));
    expect((await errorOf(send(['friend@example.org']))).name).toBe('MessageRejected');
    sandbox.ses.confirmIdentity('friend@example.org');
    expect((await send(['friend@example.org', 'bounce@simulator.amazonses.com', 'b@sub.example.com'])).MessageId).toBeDefined();
  });
});

describe('confirming an address identity on a running stack', () => {
  // A sandbox of its own: its send rate (1 a second) is not spent by other tests.
  let own: Harness;
  beforeAll(async () => {
    own = await Harness.start({ sandbox: true });
  });
  afterAll(async () => {
    await own.stop();
  });

  it('confirms an address identity over HTTP (POST /_local/identities/{address}/confirm), as its link would; an unknown one is 404', async () => {
    const send = () => sendText(own, ['reader@example.org']);
    await own.client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'reader@example.org' }));
    expect((await errorOf(send())).name).toBe('MessageRejected');
    const confirm = (address: string) =>
      fetch(`${own.ses.url}/_local/identities/${encodeURIComponent(address)}/confirm`, { method: 'POST' });
    const confirmed = await confirm('reader@example.org');
    expect({ status: confirmed.status, body: await confirmed.json() }).toEqual({
      status: 200,
      body: { identity: 'reader@example.org', verified_for_sending: true },
    });
    expect((await send()).MessageId).toBeDefined();
    const unknown = await confirm('stranger@example.org');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ message: expect.stringContaining('stranger@example.org') });
  });
});
