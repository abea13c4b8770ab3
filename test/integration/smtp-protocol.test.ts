/**
 * The SMTP relay's conversation, with a raw client: what it advertises, what it refuses and with which
 * reply (enhanced status codes), limits (size, recipients, failed logins), a credential revoked in the
 * middle of a session, and a client that drops in the middle of DATA (nothing stored) while another
 * client is served.
 */
import { publishAll, uniqueDomain } from './harness/dns';
import { createSmtpCredential, dotStuff, ownLoopbackAddress, relay, SmtpClient, type SmtpCredential } from './harness/smtp';
import { api, newAccount, sesMessages, sesMessagesFor, uniqueEmail, waitForStatus, type TestAccount } from './harness/stack';

const message = (from: string, to: string, subject: string, body = 'Hello') =>
  `From: ${from}\r\nTo: ${to}\r\nSubject: ${subject}\r\n\r\n${body}\r\n`;

describe('the SMTP relay conversation', () => {
  let account: TestAccount;
  let domain: string;
  let credential: SmtpCredential;
  const clients: SmtpClient[] = [];
  const ready = async (password?: string, options: { localAddress?: string } = {}) => {
    const client = await SmtpClient.ready(password, options);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    account = await newAccount({ plan: 'pro', paymentMethod: true });
    domain = uniqueDomain();
    const created = await api('POST', '/domains', { key: account.key, body: { name: domain } });
    await publishAll(created.body.domain.records);
    expect(
      (await api('POST', `/domains/${created.body.domain.id}`, { key: account.key, body: { action: 'verify' } })).body.domain.status,
    ).toBe('verified');
    credential = await createSmtpCredential(account);
  });
  afterAll(() => {
    for (const client of clients) client.destroy();
  });

  it('is reported by GET /health and in stack.json', async () => {
    const health = await api('GET', '/health');
    const { host, port } = relay();
    expect(health.body.smtp).toEqual({ address: `${host}:${port}`, state: 'up', connections: expect.any(Number) });
  });

  it('advertises STARTTLS first, then AUTH PLAIN LOGIN, SIZE, PIPELINING, 8BITMIME, SMTPUTF8 and enhanced status codes', async () => {
    const { client, greeting } = await SmtpClient.connect();
    clients.push(client);
    expect(greeting.code).toBe(220);
    const plain = await client.command('EHLO client.test');
    expect(plain.lines.map((line) => line.slice(4))).toEqual(
      expect.arrayContaining(['PIPELINING', '8BITMIME', 'SMTPUTF8', 'ENHANCEDSTATUSCODES', 'STARTTLS', 'SIZE 39983616']),
    );
    await client.starttls();
    const secure = await client.command('EHLO client.test');
    const features = secure.lines.map((line) => line.slice(4));
    expect(features).toEqual(
      expect.arrayContaining(['AUTH PLAIN LOGIN', 'SIZE 39983616', 'PIPELINING', '8BITMIME', 'SMTPUTF8', 'ENHANCEDSTATUSCODES']),
    );
    expect(features).not.toContain('STARTTLS');
    await client.quit();
  });

  it('refuses AUTH before STARTTLS (538 5.7.0) and mail before AUTH (530 5.7.0)', async () => {
    const { client } = await SmtpClient.connect();
    clients.push(client);
    await client.command('EHLO client.test');
    expect(await client.login(credential.password)).toMatchObject({ code: 538, text: expect.stringMatching(/^5\.7\.0 /) });
    expect(await client.command(`MAIL FROM:<hello@${domain}>`)).toMatchObject({
      code: 530,
      text: expect.stringMatching(/^5\.7\.0 Authentication required: STARTTLS, then AUTH/),
    });
    await client.starttls();
    await client.command('EHLO client.test');
    expect(await client.command(`MAIL FROM:<hello@${domain}>`)).toMatchObject({ code: 530 });
    expect((await client.command('AUTH LOGIN')).code).toBe(334);
    expect((await client.command(Buffer.from('mailservice').toString('base64'))).code).toBe(334);
    expect(await client.command(Buffer.from(credential.password).toString('base64'))).toMatchObject({
      code: 235,
      text: expect.stringMatching(/^2\.7\.0 /),
    });
    await client.quit();
  });

  it('answers a wrong password 535 5.7.8, and after 5 failures from an address 421 4.7.0 and closes, for that address only', async () => {
    const address = ownLoopbackAddress();
    const client = await ready(undefined, { localAddress: address });
    expect(await client.login('svcsmtp_wrong-wrong-wrong-wrong-wrong')).toMatchObject({
      code: 535,
      text: expect.stringMatching(/^5\.7\.8 Invalid SMTP credential/),
    });
    expect(await client.login(credential.password, 'someone')).toMatchObject({
      code: 535,
      text: expect.stringMatching(/^5\.7\.8 Invalid SMTP username: it is always "mailservice"/),
    });
    expect(await client.login('svc_an-api-key-is-not-an-smtp-password')).toMatchObject({ code: 535 });
    expect((await client.login('svcsmtp_wrong-wrong-wrong-wrong-wrong2')).code).toBe(535);
    expect(await client.login('svcsmtp_wrong-wrong-wrong-wrong-wrong3')).toMatchObject({
      code: 421,
      text: expect.stringMatching(/^4\.7\.0 .*Too many failed logins/),
    });
    await client.closed;
    // Still blocked, even with the right password; another address is not.
    const again = await ready(undefined, { localAddress: address });
    expect(await again.login(credential.password)).toMatchObject({
      code: 421,
      text: expect.stringMatching(/^4\.7\.0 Too many failed logins from this address; try again in \d+ s/),
    });
    const other = await ready(undefined, { localAddress: ownLoopbackAddress() });
    expect((await other.login(credential.password)).code).toBe(235);
    await other.quit();
  });

  it('refuses a declared or actual size over the limit with 552 5.3.4, and serves the next message', async () => {
    const client = await ready(credential.password);
    expect(await client.command(`MAIL FROM:<hello@${domain}> SIZE=40000001`)).toMatchObject({
      code: 552,
      text: expect.stringMatching(/^5\.3\.4 /),
    });
    const to = uniqueEmail('big');
    const big = Buffer.alloc(40_000_000, 'x\r\n');
    const oversize = await client.transaction(
      `hello@${domain}`,
      [to],
      Buffer.concat([Buffer.from(message(`hello@${domain}`, to, 'Too big', '')), big]),
    );
    expect(oversize.done).toMatchObject({ code: 552, text: expect.stringMatching(/^5\.3\.4 The message is larger than 39983616 bytes/) });
    const fine = await client.transaction(`hello@${domain}`, [to], message(`hello@${domain}`, to, 'Fits'));
    expect(fine.done).toMatchObject({ code: 250, text: expect.stringMatching(/^2\.0\.0 Ok: queued as msg_/) });
    await client.quit();
  });

  it('takes 50 recipients and answers the 51st 452 4.5.3 (the message still goes to the 50)', async () => {
    const client = await ready(credential.password);
    expect((await client.command(`MAIL FROM:<hello@${domain}>`)).code).toBe(250);
    const recipients = Array.from({ length: 51 }, (_, i) => `r${i}-${Date.now()}@example.org`);
    for (const address of recipients.slice(0, 50)) expect((await client.command(`RCPT TO:<${address}>`)).code).toBe(250);
    // The same address again is not one more recipient.
    expect((await client.command(`RCPT TO:<${recipients[0]}>`)).code).toBe(250);
    expect(await client.command(`RCPT TO:<${recipients[50]}>`)).toMatchObject({
      code: 452,
      text: expect.stringMatching(/^4\.5\.3 Too many recipients: at most 50 per message/),
    });
    expect((await client.command('DATA')).code).toBe(354);
    client.write(`${message(`hello@${domain}`, 'Undisclosed recipients:;', 'Fifty')}.\r\n`);
    const done = await client.reply();
    expect(done.code).toBe(250);
    const email = await waitForStatus(account, /queued as (msg_\w+)/.exec(done.text)![1]!, 'delivered');
    expect(email).toMatchObject({ to: [], cc: [] });
    expect(email.bcc).toEqual(recipients.slice(0, 50));
    await client.quit();
  });

  it('refuses raw 8-bit header text at DATA with 550 5.6.0 naming the field (SES takes 7-bit headers)', async () => {
    const client = await ready(credential.password);
    const result = await client.transaction(
      `hello@${domain}`,
      [uniqueEmail('x')],
      `From: Zoë <hello@${domain}>\r\nTo: x@example.org\r\nSubject: Hi\r\n\r\nHi\r\n`,
    );
    expect(result.done).toMatchObject({ code: 550, text: expect.stringMatching(/^5\.6\.0 The message's From field has raw 8-bit/) });
    await client.quit();
  });

  it('delivers an 8-bit body (8BITMIME, SMTPUTF8) with encoded header text byte for byte', async () => {
    const client = await ready(credential.password);
    const to = uniqueEmail('utf8');
    const raw = Buffer.from(
      `From: =?UTF-8?Q?Zo=C3=AB?= <hello@${domain}>\r\nTo: ${to}\r\nSubject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe_aus_K=C3=B6ln?=\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nünïcödé body\r\n.leading dot\r\n`,
      'utf8',
    );
    expect((await client.command(`MAIL FROM:<hello@${domain}> BODY=8BITMIME SMTPUTF8`)).code).toBe(250);
    expect((await client.command(`RCPT TO:<${to}>`)).code).toBe(250);
    expect((await client.command('DATA')).code).toBe(354);
    client.write(Buffer.concat([dotStuff(raw), Buffer.from('.\r\n')]));
    const done = await client.reply();
    expect(done.code).toBe(250);
    const email = await waitForStatus(account, /queued as (msg_\w+)/.exec(done.text)![1]!, 'delivered');
    expect(email).toMatchObject({ from: `"Zoë" <hello@${domain}>`, subject: 'Grüße aus Köln' });
    const [delivered] = await sesMessagesFor(email.id);
    const bytes = Buffer.from(delivered!.raw_base64, 'base64');
    // The client's message is the tail of what was delivered (the service's fields come first).
    expect(bytes.subarray(bytes.length - raw.length).equals(raw)).toBe(true);
    await client.quit();
  });

  it('refuses a message without From at DATA with 550 5.6.0', async () => {
    const client = await ready(credential.password);
    const result = await client.transaction(`hello@${domain}`, [uniqueEmail('x')], 'To: x@example.org\r\nSubject: No sender\r\n\r\nHi\r\n');
    expect(result.done).toMatchObject({ code: 550, text: expect.stringMatching(/^5\.6\.0 The message's From field is missing/) });
    await client.quit();
  });

  it('answers malformed commands clearly and keeps the session', async () => {
    const client = await ready(credential.password);
    expect(await client.command('MAIL FROM:<not an address')).toMatchObject({ code: 501, text: expect.stringMatching(/^5\.1\.7 /) });
    // Valid SMTP syntax, but not an address the service sends from (no domain with a dot).
    expect(await client.command('MAIL FROM:<hello@localhost>')).toMatchObject({
      code: 553,
      text: expect.stringMatching(/^5\.1\.7 The sender address <hello@localhost> is not valid/),
    });
    expect((await client.command('FROBNICATE')).code).toBe(500);
    expect(await client.command('MAIL FROM:<>')).toMatchObject({ code: 550, text: expect.stringMatching(/^5\.7\.1 The null sender/) });
    expect((await client.command(`MAIL FROM:<hello@${domain}>`)).code).toBe(250);
    expect(await client.command('RCPT TO:<bad address@example.org>')).toMatchObject({ code: 501 });
    expect(await client.command('RCPT TO:<someone@localhost>')).toMatchObject({
      code: 553,
      text: expect.stringMatching(/^5\.1\.3 The recipient address <someone@localhost> is not valid/),
    });
    await client.quit();
  });

  it('stops a session at its next command once the credential is revoked (535 5.7.8), at MAIL FROM and at DATA', async () => {
    const revoked = await createSmtpCredential(account);
    const client = await ready(revoked.password);
    const to = uniqueEmail('rev');
    expect((await client.command(`MAIL FROM:<hello@${domain}>`)).code).toBe(250);
    expect((await client.command(`RCPT TO:<${to}>`)).code).toBe(250);
    await revoked.revoke();
    expect((await client.command('DATA')).code).toBe(354);
    client.write(`${message(`hello@${domain}`, to, 'Revoked')}.\r\n`);
    expect(await client.reply()).toMatchObject({ code: 535, text: expect.stringMatching(/^5\.7\.8 Invalid SMTP credential/) });
    expect(await client.command(`MAIL FROM:<hello@${domain}>`)).toMatchObject({ code: 535 });
    await client.quit();
  });

  it('keeps nothing of a message whose client drops in the middle of DATA, while serving another client', async () => {
    const owner = await newAccount({ plan: 'pro', paymentMethod: true });
    const ownerDomain = uniqueDomain();
    const created = await api('POST', '/domains', { key: owner.key, body: { name: ownerDomain } });
    await publishAll(created.body.domain.records);
    await api('POST', `/domains/${created.body.domain.id}`, { key: owner.key, body: { action: 'verify' } });
    const ownerCredential = await createSmtpCredential(owner);
    const marker = `dropped-${Date.now()}`;

    const dropping = await ready(ownerCredential.password);
    expect((await dropping.command(`MAIL FROM:<hello@${ownerDomain}>`)).code).toBe(250);
    expect((await dropping.command(`RCPT TO:<${uniqueEmail('drop')}>`)).code).toBe(250);
    expect((await dropping.command('DATA')).code).toBe(354);
    dropping.write(`From: hello@${ownerDomain}\r\nTo: x@example.org\r\nSubject: ${marker}\r\n\r\n${'half a message\r\n'.repeat(1000)}`);

    // Meanwhile another client sends a whole message.
    const other = await ready(ownerCredential.password);
    const sent = await other.transaction(
      `hello@${ownerDomain}`,
      [uniqueEmail('ok')],
      message(`hello@${ownerDomain}`, 'ok@example.org', 'Served'),
    );
    expect(sent.done?.code).toBe(250);
    dropping.destroy();
    await dropping.closed;
    await other.quit();

    const id = /queued as (msg_\w+)/.exec(sent.done!.text)![1]!;
    await waitForStatus(owner, id, 'delivered');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const listed = await api('GET', '/emails', { key: owner.key });
    expect(listed.body.emails.map((email: { id: string }) => email.id)).toEqual([id]);
    expect(await sesMessages({ subject: marker })).toEqual([]);
  });
});
