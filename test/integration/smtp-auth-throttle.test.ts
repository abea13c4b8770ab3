/**
 * The SMTP AUTH throttle is shared by every relay task: a second relay (the product's relay server,
 * built as functions/smtp-relay/main.ts builds it, listening on its own port in this process) runs
 * against the stack's table beside the stack's own relay, as two Fargate tasks behind the load balancer
 * do. Failed logins at one count at the other, per client address and per credential tried, and
 * parallel sessions on both are told no more failures than the limit.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { certificate } from '#localstack/cloud/tls/smtp-relay';
import { relaySettingsFromEnv } from '#shared/doors/smtp/relay-config';
import { createRelayServer, type RelayServer } from '#shared/doors/smtp/relay-server';
import { createSmtpCredential, ownLoopbackAddress, relay, SmtpClient, type SmtpCredential } from './harness/smtp';
import { newAccount, stack } from './harness/stack';

const MAX_FAILURES = 5;
const WINDOW_MS = 300_000;
const TOLD_FAILURE = /^5\.7\.8 Invalid SMTP credential|^4\.7\.0 Invalid SMTP credential/;
const NOT_TOLD = /^4\.7\.0 Too many failed logins from this address; try again in \d+ s/;

describe('failed SMTP logins counted across two relay tasks', () => {
  let second: RelayServer;
  let secondPort: number;
  let credential: SmtpCredential;
  const clients: SmtpClient[] = [];

  /** A session from `localAddress` to the stack's relay (1) or to the second one (2), STARTTLS done. */
  const session = async (which: 1 | 2, localAddress: string) => {
    const target = which === 1 ? relay() : { host: '127.0.0.1', port: secondPort };
    const { client } = await SmtpClient.connect({ localAddress, target });
    clients.push(client);
    await client.command('EHLO client.test');
    await client.starttls();
    await client.command('EHLO client.test');
    return client;
  };
  const login = async (which: 1 | 2, localAddress: string, password: string) => (await session(which, localAddress)).login(password);
  const guess = () => `svcsmtp_${randomBytes(24).toString('base64url')}`;
  /**
   * The counts are per fixed window aligned to the epoch (5 min): a test's logins that straddled a window's
   * end would be counted in two windows (the product's documented rule, not a fault). Each test starts at
   * least 20 s before the next window (its logins take a few seconds), waiting out the edge if needed.
   */
  const awayFromWindowEdge = async () => {
    const left = WINDOW_MS - (Date.now() % WINDOW_MS);
    if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 500));
  };
  beforeEach(awayFromWindowEdge, 30_000);

  beforeAll(async () => {
    process.env.LOG_LEVEL = 'silent';
    const { services } = stack();
    const { key, cert } = await certificate(join(process.env.TEST_STACK_DATA_DIR!, 'smtp-relay'));
    // The stack's relay reads the same settings (SMTP_AUTH_MAX_FAILURES, SMTP_AUTH_WINDOW_S: 5 per 300 s).
    const settings = relaySettingsFromEnv(process.env);
    expect(settings.authThrottle).toEqual({ maxFailures: MAX_FAILURES, windowMs: WINDOW_MS });
    second = createRelayServer({ tls: { key, cert }, ...settings, hostname: 'localhost', closeTimeoutMs: 1000 }, services);
    secondPort = await second.listen(0, '127.0.0.1');
    credential = await createSmtpCredential(await newAccount({ plan: 'pro', paymentMethod: true }));
  });

  afterAll(async () => {
    for (const client of clients) client.destroy();
    await second?.close();
  });

  it('counts guesses at one relay against the other, per client address', async () => {
    const address = ownLoopbackAddress();
    for (const which of [1, 1, 2] as const)
      expect(await login(which, address, guess())).toMatchObject({ code: 535, text: expect.stringMatching(TOLD_FAILURE) });
    expect(await login(1, address, guess())).toMatchObject({ code: 535 });
    // The fifth failure, at the second relay, reaches the limit the first relay's four count toward.
    expect(await login(2, address, guess())).toMatchObject({
      code: 421,
      text: expect.stringMatching(/^4\.7\.0 Invalid SMTP credential.*Too many failed logins/),
    });
    // Blocked at both, even with the right password; another address is not.
    expect(await login(1, address, credential.password)).toMatchObject({ code: 421, text: expect.stringMatching(NOT_TOLD) });
    expect(await login(2, address, credential.password)).toMatchObject({ code: 421, text: expect.stringMatching(NOT_TOLD) });
    expect((await login(2, ownLoopbackAddress(), credential.password)).code).toBe(235);
    expect((await login(1, ownLoopbackAddress(), credential.password)).code).toBe(235);
  });

  it('counts one password replayed from many addresses at both relays as one credential', async () => {
    const password = guess();
    const answers = [];
    for (let n = 0; n < MAX_FAILURES + 2; n++) answers.push(await login(n % 2 === 0 ? 1 : 2, ownLoopbackAddress(), password));
    expect(answers.slice(0, MAX_FAILURES - 1).map((reply) => reply.code)).toEqual(Array(MAX_FAILURES - 1).fill(535));
    expect(answers[MAX_FAILURES - 1]).toMatchObject({
      code: 421,
      text: expect.stringMatching(/^4\.7\.0 Invalid SMTP credential.*Too many failed logins/),
    });
    for (const reply of answers.slice(MAX_FAILURES))
      expect(reply).toMatchObject({
        code: 421,
        text: expect.stringMatching(/^4\.7\.0 Too many failed logins with this password; try again in \d+ s/),
      });
  });

  it('tells parallel sessions on both relays no more failures than the limit', async () => {
    const address = ownLoopbackAddress();
    const sessions = await Promise.all(Array.from({ length: 16 }, (_, n) => session(n % 2 === 0 ? 1 : 2, address)));
    const replies = await Promise.all(sessions.map((client) => client.login(guess())));
    const told = replies.filter((reply) => TOLD_FAILURE.test(reply.text));
    expect(told).toHaveLength(MAX_FAILURES);
    for (const reply of replies) expect(reply.code === 535 || reply.code === 421).toBe(true);
    for (const reply of replies.filter((reply) => !TOLD_FAILURE.test(reply.text)))
      expect(reply).toMatchObject({ code: 421, text: expect.stringMatching(NOT_TOLD) });
  }, 60_000);
});
