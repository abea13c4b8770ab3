/**
 * The send core: the one door every channel goes through (POST /emails and its batch, resend, the SMTP
 * relay (a raw MIME message: SendOptions.mime), the dashboard, automation steps). Four named steps:
 *  1. load (./send-context-loader.ts): who sends, the rendered template, the send's tenant, the sender's
 *     domain, the recipients' suppressions and opt-outs and the idempotency record, in ONE round trip when
 *     the process planned it right (401/403/404, and 400 for a template or a bare `from`);
 *  2. idempotency (./idempotency.ts): a stored answer for the key is replayed (409 for another request);
 *  3. policy (./check-policy.ts): the tenant may send, the sender, the recipients (403), suppressions and
 *     opt-outs (422, kept as a failed email that fires email.suppressed); then the send's limits
 *     (./send-limits.ts: the plan's, the sandbox's, the tenant's ramp and daily_limit);
 *  3b. with `validate: true` only, after all of that (./validate-send.ts): the limits read (429), the
 *     request's lookup bound (400), the validation allowance (429), then the recipients' domains (422 for
 *     one that takes no mail); a send refused before looks nothing up, and without it nothing is;
 *  4. accept (./accept-email.ts, the second round trip): content to the blob store, then the email with
 *     its capped usage reservations and idempotency record in one transaction (429 plan_limit); a
 *     scheduled one gets its one-time schedule first (503 when the scheduler is down: nothing stored).
 *     A body that goes to the blob store is put beside step 1's read when this process can tell its
 *     retention class (./early-body.ts), so it adds no round trip; a send refused after that deletes it.
 * Idempotency comes before the policy so that a replay answers as the first request did, whatever
 * changed since (a domain unverified, a recipient suppressed).
 */
import { checkScheduleTime } from '../../domain/emails/schedule';
import { newId } from '../../domain/ids';
import type { ParsedSendRequest } from '../../domain/emails/send-request';
import { withIdempotency } from './idempotency';
import { acceptEmail } from './accept-email';
import { checkPolicy } from './check-policy';
import { sendLimits } from './send-limits';
import { validateSend } from './validate-send';
import type { SendDeps, SendOptions, SendResult } from './send-deps';
import type { SendCaller } from './send-caller';

export type { SendCaller } from './send-caller';
export type { SendDeps, SendOptions, SendResult } from './send-deps';

export async function sendEmail(
  deps: SendDeps,
  caller: SendCaller,
  parsed: ParsedSendRequest,
  options: SendOptions = {},
): Promise<SendResult> {
  const now = deps.clock.now();
  const at = parsed.scheduled_at === undefined ? null : checkScheduleTime(parsed.scheduled_at, now);
  const emailId = options.emailId ?? newId('msg', now.getTime());
  const early = deps.earlyBodies?.start(caller, emailId, parsed, { now, at }, options.mime);
  try {
    const facts = await deps.sendContextLoader.load(caller, parsed, now, options.idempotency?.key, options.clearedRecipients);
    deps.earlyBodies?.remember(caller, facts.principal.account);
    return await withIdempotency(
      deps,
      facts.principal.account.id,
      options.idempotency,
      now,
      async () => {
        const policy = await checkPolicy(deps, facts, now, at, emailId);
        const limits = await sendLimits(deps, facts, policy.sandbox, now);
        if (parsed.validate) await validateSend(deps, facts, limits);
        return acceptEmail(deps, facts, policy, limits, { now, at }, options, early);
      },
      facts.idempotency,
    );
  } finally {
    // Refused, replayed, or put again under another class: the early object is deleted before the answer.
    if (early && !early.used) await deps.earlyBodies?.discard(early);
  }
}
