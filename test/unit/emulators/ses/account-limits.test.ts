/**
 * The local SES account's quota and switches (localstack/emulators/ses/account-limits.ts, read as GetAccount
 * answers them: localstack/emulators/ses/operations/get-account.ts): the rate and 24-hour quota counted per
 * recipient, and pause and suspension, as the SDK sees them over the wire.
 */
import {
  CreateEmailIdentityCommand,
  GetAccountCommand,
  PutAccountSendingAttributesCommand,
  SendEmailCommand,
  type SESv2Client,
} from '@aws-sdk/client-sesv2';
import { AccountLimits, SANDBOX_QUOTA } from '#localstack/emulators/ses/account-limits';
import { SesError } from '#localstack/emulators/ses/errors';
import { accountView } from '#localstack/emulators/ses/operations/get-account';
import { Harness } from './harness';

function refusal(fn: () => void): { code: string; message: string } | null {
  try {
    fn();
    return null;
  } catch (error) {
    if (error instanceof SesError) return { code: error.code, message: error.message };
    throw error;
  }
}

describe('AccountLimits (a moved clock)', () => {
  let now = 1_000_000;
  const clock = () => now;

  it('admits the rate per recipient with one second of burst, then refuses with "Maximum sending rate exceeded."', () => {
    const limits = new AccountLimits({ maxSendRate: 14 }, clock);
    for (let i = 0; i < 14; i++) expect(refusal(() => limits.admitSend(1))).toBeNull();
    expect(refusal(() => limits.admitSend(1))).toEqual({ code: 'TooManyRequestsException', message: 'Maximum sending rate exceeded.' });
    now += 1000 / 14;
    expect(refusal(() => limits.admitSend(1))).toBeNull();
    expect(refusal(() => limits.admitSend(1))?.code).toBe('TooManyRequestsException');
  });

  it('lets a many-recipient message pass at 1/s, then refuses until its recipients are paid for', () => {
    const limits = new AccountLimits({ maxSendRate: 1 }, clock);
    expect(refusal(() => limits.admitSend(5))).toBeNull();
    now += 4000;
    expect(refusal(() => limits.admitSend(1))?.message).toBe('Maximum sending rate exceeded.');
    now += 1000;
    expect(refusal(() => limits.admitSend(1))).toBeNull();
  });

  it('counts the 24-hour quota per recipient over a rolling day', () => {
    const limits = new AccountLimits({ max24HourSend: 10 }, clock);
    expect(refusal(() => limits.admitSend(6))).toBeNull();
    now += 60_000;
    expect(refusal(() => limits.admitSend(4))).toBeNull();
    expect(refusal(() => limits.admitSend(1))).toEqual({ code: 'TooManyRequestsException', message: 'Daily message quota exceeded.' });
    expect(accountView(limits).SendQuota).toEqual({ Max24HourSend: 10, MaxSendRate: -1, SentLast24Hours: 10 });
    now += 24 * 3600_000 - 60_000; // the first send leaves the window
    expect(refusal(() => limits.admitSend(6))).toBeNull();
    expect(refusal(() => limits.admitSend(1))?.message).toBe('Daily message quota exceeded.');
  });

  it('keeps the rolling day right past thousands of sends leaving it (the list compacted as they go)', () => {
    const limits = new AccountLimits({ max24HourSend: 5000 }, clock);
    const start = now;
    // 4,000 sends a minute apart (2.8 days): at each, the window holds the last 1,440 minutes' sends.
    let refused = 0;
    for (let i = 0; i < 4000; i++) {
      now = start + i * 60_000;
      if (refusal(() => limits.admitSend(1))) refused++;
    }
    expect(refused).toBe(0);
    expect(accountView(limits).SendQuota).toMatchObject({ SentLast24Hours: 1440 });
    // 3,560 more at once reach the quota exactly; one more is refused.
    for (let i = 0; i < 3560; i++) if (refusal(() => limits.admitSend(1))) refused++;
    expect(refused).toBe(0);
    expect(refusal(() => limits.admitSend(1))?.message).toBe('Daily message quota exceeded.');
    now += 24 * 3600_000; // everything leaves
    expect(accountView(limits).SendQuota).toMatchObject({ SentLast24Hours: 0 });
  });

  it('the sandbox preset is 1/s and 200 a day, without production access', () => {
    const account = accountView(new AccountLimits({ sandbox: true }, clock));
    expect(account).toMatchObject({
      ProductionAccessEnabled: false,
      SendQuota: { MaxSendRate: SANDBOX_QUOTA.maxSendRate, Max24HourSend: SANDBOX_QUOTA.max24HourSend },
    });
    expect(accountView(new AccountLimits({}, clock))).toMatchObject({
      ProductionAccessEnabled: true,
      SendingEnabled: true,
      EnforcementStatus: 'HEALTHY',
    });
  });

  it('off by default: never throttles', () => {
    const limits = new AccountLimits({}, clock);
    for (let i = 0; i < 1000; i++) limits.admitSend(50);
    expect(accountView(limits).SendQuota).toMatchObject({ SentLast24Hours: 50_000 });
  });
});

describe('account switches over the wire (SESv2 SDK)', () => {
  let h: Harness;
  let client: SESv2Client;
  const send = () =>
    client.send(
      new SendEmailCommand({
        FromEmailAddress: 'sender@example.com',
        Destination: { ToAddresses: ['a@example.com', 'b@example.com'] },
        Content: { Simple: { Subject: { Data: 'hi' }, Body: { Text: { Data: 'hi' } } } },
      }),
    );
  const local = async (body?: object) => {
    const response = await fetch(`${h.ses.url}/_local/account`, body ? { method: 'POST', body: JSON.stringify(body) } : {});
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const refusedWith = async (): Promise<{ name: string; message: string; status?: number }> => {
    try {
      await send();
    } catch (error) {
      const e = error as Error & { $metadata?: { httpStatusCode?: number } };
      return { name: e.name, message: e.message, status: e.$metadata?.httpStatusCode };
    }
    throw new Error('the send was accepted');
  };

  beforeAll(async () => {
    h = await Harness.start({ sendQuota: { maxSendRate: 2, max24HourSend: 6 } });
    client = h.client;
    // SES sends only from a verified identity: an address identity, its verification link followed.
    await client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'sender@example.com' }));
    h.ses.confirmIdentity('sender@example.com');
  });
  afterAll(() => h.stop());

  it('answers 429 TooManyRequestsException over the rate, counting recipients; GetAccount shows the quota', async () => {
    await send(); // 2 recipients: the bucket (2) is empty now
    expect(await refusedWith()).toEqual({ name: 'TooManyRequestsException', message: 'Maximum sending rate exceeded.', status: 429 });
    const account = await client.send(new GetAccountCommand({}));
    expect(account.SendQuota).toEqual({ Max24HourSend: 6, MaxSendRate: 2, SentLast24Hours: 2 });
    expect(account.ProductionAccessEnabled).toBe(true);
  });

  it('PutAccountSendingAttributes pauses and resumes the account', async () => {
    await client.send(new PutAccountSendingAttributesCommand({ SendingEnabled: false }));
    expect((await client.send(new GetAccountCommand({}))).SendingEnabled).toBe(false);
    expect(await refusedWith()).toEqual({ name: 'SendingPausedException', message: 'Sending paused for this account.', status: 400 });
    await client.send(new PutAccountSendingAttributesCommand({ SendingEnabled: true }));
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the rate's bucket fills again
    await send();
  });

  it('/_local/account suspends (local only), and changes the quota', async () => {
    expect((await local({ suspended: true })).body).toMatchObject({
      suspended: true,
      EnforcementStatus: 'SHUTDOWN',
      SendingEnabled: false,
    });
    expect(await refusedWith()).toMatchObject({ name: 'AccountSuspendedException', status: 400 });
    await local({ suspended: false, maxSendRate: null });
    // 4 of 6 recipients sent: one more 2-recipient message, then the daily quota.
    await send();
    expect(await refusedWith()).toEqual({ name: 'TooManyRequestsException', message: 'Daily message quota exceeded.', status: 429 });
    expect((await local({ maxSendRate: -1 })).status).toBe(400);
    // Two 429s so far: the rate's, then the daily quota's.
    expect((await local()).body).toMatchObject({ throttled: 2, SendQuota: { MaxSendRate: -1, Max24HourSend: 6, SentLast24Hours: 6 } });
  });
});
