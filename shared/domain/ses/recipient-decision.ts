/**
 * The email's outcome decided per recipient, whatever order SES's events arrive in (SNS and SQS keep
 * none: SES publishes a suppression-list bounce at once, the other recipients' Delivery later). Pure: the
 * tally comes from one conditional write of the store (EmailRepository.recordRecipients), which answers
 * the state after that write, so of two racing events the later-written one sees both.
 *
 *   a refused recipient (not sent: an address refused while delivering, or on SES's suppression list)
 *     while another recipient was reached   -> bounced (what a refusal after delivery has always been)
 *     when every recipient is refused       -> failed (nothing went out)
 *     while others are still undecided      -> held: the email is `sent`, nothing is published
 *   a reached recipient (a Delivery, or a bounce of the receiving side)
 *     -> its own outcome, and `bounced` as well when a recipient was refused before it
 *
 * Either order therefore ends the same: A delivered and B refused is `bounced` with B's refusal as the
 * reason (the first refusal's details are kept with the tally), after email.delivered and email.bounced.
 */
import type { DeliveryOutcome } from '../emails/outcomes';
import type { RecipientResult } from './ses-event';

export interface RecipientTallyView {
  reached: number;
  refused: number;
  recipients: number;
  refusal?: Record<string, string>;
}

/** The refusal's details kept with the tally (the first refusal's win). */
export function refusalFields(outcome: DeliveryOutcome): Record<string, string> {
  const { bounce_type, bounce_reason, bounced_at, bounce_category } = outcome.fields;
  return Object.fromEntries(
    Object.entries({ bounce_type, bounce_reason, bounced_at, bounce_category }).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/** The outcomes to apply, in order, for an event about `result` recipients once the tally is recorded. */
export function decidePerRecipient(
  outcome: DeliveryOutcome,
  result: RecipientResult,
  tally: RecipientTallyView,
  sentAt: string,
): DeliveryOutcome[] {
  if (result === 'refused') {
    if (tally.reached > 0) return [{ ...outcome, event: 'bounced', status: 'bounced' }];
    if (tally.refused >= Math.max(1, tally.recipients)) return [outcome];
    // Held: only what every event records (sent_at, the provider's id), with the email `sent`.
    const { sent_at, provider_message_id } = outcome.fields;
    return [
      {
        event: 'sent',
        status: 'sent',
        at: sentAt,
        fields: { ...(sent_at ? { sent_at } : {}), ...(provider_message_id ? { provider_message_id } : {}) },
      },
    ];
  }
  if (tally.refused === 0 || outcome.status === 'bounced') return [outcome];
  const at = outcome.at;
  const refusal = tally.refusal ?? {
    bounce_type: 'hard',
    bounce_reason: 'SES did not send the message to some of its recipients.',
    bounce_category: 'unclassified',
  };
  return [outcome, { event: 'bounced', status: 'bounced', at, fields: { bounced_at: at, ...refusal } }];
}
