/**
 * The send policy (shared/usecases/send/policy.ts) called directly, as any door (the HTTP API, the SMTP
 * relay) calls it: recipients in the sandbox and before production is unlocked, a key's allowed
 * domains, category opt-outs, and the sandbox wording of the limit error. The last block checks that the
 * send core wires the same branches (in-memory fakes).
 */
import { usageReservations } from '#shared/domain/accounts/limits';
import { SANDBOX_LIMITS } from '#shared/domain/accounts/plans';
import { AppError, ForbiddenError } from '#shared/domain/errors';
import type { SendRequest } from '#shared/domain/emails/send-request';
import { sendEmail } from '#shared/usecases/send/send-email';
import { blockedError, blockedReason, checkRecipients, checkSender, findBlocked, limitError } from '#shared/usecases/send/policy';
import type { Principal } from '#shared/usecases/access/principal';
import { account, fakeSendDeps, NOW, SANDBOX } from '../usecases/send-fakes';

const OWNER = 'owner@example.com';

function principal(accountOverrides: Parameters<typeof account>[0] = {}, credential: Partial<Principal['credential']> = {}): Principal {
  return {
    account: account(accountOverrides),
    credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant: null, allowed_domains: null, ...credential },
  };
}

/** The error `fn` throws (fails the test when it throws nothing). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw, got none');
}

const verified = { id: 'dom_1', account_id: 'acc_1', status: 'verified' as const };

describe('checkRecipients', () => {
  it('refuses the sandbox sender to an address other than the account email: 403 recipient_not_allowed, reason sandbox_sender', () => {
    // A payment method does not open the sandbox sender: it only ever reaches the account email.
    const error = thrown(() => checkRecipients(principal({ payment_method: true }), true, [OWNER, 'someone@else.test']));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({
      status: 403,
      code: 'recipient_not_allowed',
      details: { reason: 'sandbox_sender', refused_recipients: ['someone@else.test'], allowed_recipients: [OWNER] },
    });
    expect((error as Error).message).toBe(`The sandbox sender can only send to the account email (${OWNER}).`);
  });

  it('lets the sandbox sender reach the account email', () => {
    expect(() => checkRecipients(principal(), true, [OWNER])).not.toThrow();
    expect(() => checkRecipients(principal({ payment_method: true }), true, [OWNER])).not.toThrow();
  });

  it('refuses a verified domain without a payment method to others: 403 recipient_not_allowed, reason production_not_unlocked', () => {
    const error = thrown(() => checkRecipients(principal({ payment_method: false }), false, ['a@else.test', OWNER, 'b@else.test']));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({
      status: 403,
      code: 'recipient_not_allowed',
      details: { reason: 'production_not_unlocked', refused_recipients: ['a@else.test', 'b@else.test'], allowed_recipients: [OWNER] },
    });
    expect((error as Error).message).toMatch(/^Production sending is not unlocked yet/);
  });

  it('lets a verified domain reach the account email before production is unlocked, and anyone after', () => {
    expect(() => checkRecipients(principal({ payment_method: false }), false, [OWNER])).not.toThrow();
    expect(() => checkRecipients(principal({ payment_method: true }), false, ['a@else.test', 'b@else.test'])).not.toThrow();
  });
});

describe("checkSender: the key's allowed_domains", () => {
  const limited = principal({ payment_method: true }, { allowed_domains: ['acme.test'] });

  it('refuses another domain with 403 domain_not_allowed naming the allowed ones, before looking at the domain', () => {
    const error = thrown(() => checkSender(limited, 'other.test', SANDBOX, { ...verified, id: 'dom_2' }));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({
      status: 403,
      code: 'domain_not_allowed',
      details: { domain: 'other.test', allowed_domains: ['acme.test'] },
    });
    expect((error as Error).message).toBe('This API key may only send from acme.test.');
  });

  it('refuses the sandbox sender too when it is not among them', () => {
    expect(thrown(() => checkSender(limited, SANDBOX, SANDBOX, null))).toMatchObject({
      status: 403,
      code: 'domain_not_allowed',
      details: { domain: SANDBOX },
    });
  });

  it('lets an allowed, verified domain of the account through (and still checks verification)', () => {
    expect(checkSender(limited, 'acme.test', SANDBOX, verified)).toEqual({ sandbox: false });
    expect(thrown(() => checkSender(limited, 'acme.test', SANDBOX, { ...verified, status: 'pending' }))).toMatchObject({
      status: 403,
      code: 'domain_not_verified',
    });
  });

  it('places no limit when allowed_domains is null', () => {
    expect(checkSender(principal(), SANDBOX, SANDBOX, null)).toEqual({ sandbox: true });
    expect(checkSender(principal(), 'acme.test', SANDBOX, verified)).toEqual({ sandbox: false });
  });
});

describe('findBlocked: category opt-outs', () => {
  it('blocks opted-out recipients of product and newsletter email', () => {
    expect(findBlocked('product', [], ['a@x.test'])).toEqual({ category: 'product', suppressed: [], optedOut: ['a@x.test'] });
    expect(findBlocked('newsletter', [], ['a@x.test', 'b@x.test'])).toEqual({
      category: 'newsletter',
      suppressed: [],
      optedOut: ['a@x.test', 'b@x.test'],
    });
  });

  it('ignores opt-outs for transactional email, and blocks nobody when nobody is listed', () => {
    expect(findBlocked('transactional', [], ['a@x.test'])).toBeNull();
    expect(findBlocked('product', [], [])).toBeNull();
  });

  it('lets a suppression win over an opt-out', () => {
    expect(findBlocked('product', ['s@x.test'], ['a@x.test'])).toEqual({ category: 'product', suppressed: ['s@x.test'], optedOut: [] });
  });

  it('answers an opt-out with 422 validation_error naming the category and the recipients', () => {
    const blocked = findBlocked('newsletter', [], ['a@x.test'])!;
    const error = blockedError(blocked, 'msg_1');
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_error',
      details: { category_unsubscribed: ['a@x.test'], category: 'newsletter', email_id: 'msg_1' },
    });
    expect(error.message).toBe('A recipient has unsubscribed from newsletter email: a@x.test.');
    expect(blockedReason(blocked)).toBe('unsubscribed from newsletter email: a@x.test');
  });
});

describe('limitError', () => {
  const [planDay, planMonth, sandboxDay, sandboxMonth] = usageReservations('free', true, NOW);

  it("names the sandbox sender's daily and monthly caps, with the sandbox hint", () => {
    expect(sandboxDay).toMatchObject({ scope: 'SANDBOX', period: 'DAY' });
    const daily = limitError(principal({ plan: 'pro' }), sandboxDay!, SANDBOX_LIMITS.dailyEmails, 1, 'https://dashboard.test');
    expect(daily).toBeInstanceOf(AppError);
    expect(daily).toMatchObject({
      status: 429,
      code: 'plan_limit',
      hint: 'Verify your own domain to send beyond the sandbox caps.',
      upgradeUrl: 'https://dashboard.test/settings/billing',
      details: {
        limit: SANDBOX_LIMITS.dailyEmails,
        period: 'day',
        scope: 'sandbox',
        plan: 'pro',
        used: SANDBOX_LIMITS.dailyEmails,
        requested: 1,
        resets_at: sandboxDay!.resetsAt,
      },
    });
    expect(daily.message).toBe(
      `The sandbox sender's daily limit of ${SANDBOX_LIMITS.dailyEmails} emails would be exceeded; it resets at ${sandboxDay!.resetsAt}.`,
    );

    const monthly = limitError(principal(), sandboxMonth!, undefined, 2, 'https://dashboard.test');
    expect(monthly.message).toBe(
      `The sandbox sender's monthly limit of ${SANDBOX_LIMITS.monthlyEmails} emails would be exceeded; it resets at ${sandboxMonth!.resetsAt}.`,
    );
    expect(monthly.details).toMatchObject({ scope: 'sandbox', period: 'month', requested: 2 });
    expect(monthly.details).not.toHaveProperty('used');
  });

  it('names the plan otherwise', () => {
    const error = limitError(principal({ plan: 'free' }), planDay!, 100, 1, 'https://dashboard.test');
    expect(error.message).toMatch(/^The free plan's daily limit of \d+ emails/);
    expect(error).toMatchObject({ status: 429, code: 'plan_limit', details: { scope: 'plan' }, hint: 'Upgrade your plan to send more.' });
    expect(planMonth).toMatchObject({ scope: 'PLAN', period: 'MONTH' });
  });
});

describe('the send core applies these branches', () => {
  const request = (overrides: Partial<SendRequest> = {}): SendRequest =>
    ({ from: { email: `hi@${SANDBOX}` }, to: [OWNER], subject: 'Hello', text: 'hi', ...overrides }) as SendRequest;
  const acme = new Map([['acme.test', { ...verified }]]);

  it('sandbox sender to a stranger: 403 sandbox_sender, nothing stored', async () => {
    const { deps, world } = fakeSendDeps();
    await expect(sendEmail(deps, { principal: principal() }, request({ to: ['someone@else.test'] }))).rejects.toMatchObject({
      status: 403,
      code: 'recipient_not_allowed',
      details: { reason: 'sandbox_sender' },
    });
    expect(world.accepted).toHaveLength(0);
    expect(world.created).toHaveLength(0);
  });

  it('verified domain without a payment method: 403 production_not_unlocked', async () => {
    const { deps, world } = fakeSendDeps({ domains: acme });
    await expect(
      sendEmail(deps, { principal: principal() }, request({ from: { email: 'a@acme.test' }, to: ['someone@else.test'] })),
    ).rejects.toMatchObject({
      status: 403,
      code: 'recipient_not_allowed',
      details: { reason: 'production_not_unlocked' },
    });
    expect(world.accepted).toHaveLength(0);
  });

  it('a key limited to other domains: 403 domain_not_allowed', async () => {
    const { deps } = fakeSendDeps({ domains: acme });
    const limited = principal({ payment_method: true }, { allowed_domains: ['other.test'] });
    await expect(sendEmail(deps, { principal: limited }, request({ from: { email: 'a@acme.test' } }))).rejects.toMatchObject({
      status: 403,
      code: 'domain_not_allowed',
    });
  });

  it('an opted-out recipient of product email: 422 kept as a failed email with its category_unsubscribed event; transactional goes out', async () => {
    const { deps, world } = fakeSendDeps({ domains: acme, optedOut: new Set(['reader@else.test']) });
    const unlocked = principal({ payment_method: true });
    const send = (category: 'product' | 'transactional') =>
      sendEmail(deps, { principal: unlocked }, request({ from: { email: 'a@acme.test' }, to: ['reader@else.test'], category }));
    await expect(send('product')).rejects.toMatchObject({
      status: 422,
      code: 'validation_error',
      details: { category_unsubscribed: ['reader@else.test'], category: 'product' },
    });
    expect(world.created).toHaveLength(1);
    expect(world.createdInternals.get(world.created[0]!)).toEqual({
      suppressed_event: { category_unsubscribed: ['reader@else.test'], category: 'product', reason: 'category_unsubscribed' },
    });
    expect(world.accepted).toHaveLength(0);
    await expect(send('transactional')).resolves.toMatchObject({ status: 'sent' });
    expect(world.accepted).toHaveLength(1);
  });

  it('the sandbox cap reached: 429 worded for the sandbox sender', async () => {
    const { deps } = fakeSendDeps({
      acceptOutcome: (req) => ({
        kind: 'limit_reached',
        reservation: req.capped.find((r) => r.scope === 'SANDBOX')!,
        used: SANDBOX_LIMITS.dailyEmails,
      }),
    });
    await expect(sendEmail(deps, { principal: principal({ plan: 'pro', payment_method: true }) }, request())).rejects.toMatchObject({
      status: 429,
      code: 'plan_limit',
      message: expect.stringMatching(/^The sandbox sender's daily limit of 100 emails/),
      details: { scope: 'sandbox', period: 'day' },
    });
  });
});
