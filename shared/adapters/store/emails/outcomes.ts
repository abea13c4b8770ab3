/**
 * What happens to an email after the hand-off: the provider's outcomes (delivered, bounced, complained,
 * delayed), each recipient's result as SES reports it, and the reader's opens and clicks. Every write is
 * conditional, so out-of-order and repeated events never move an email back.
 */
import type { Email } from '#shared/domain/emails/email';
import { EVENT_RANK, type DeliveryOutcome, type EngagementEvent } from '#shared/domain/emails/outcomes';
import { parseMailbox } from '#shared/domain/mail/address';
import { keys } from '../keys';
import { updateIfCondition, type Table } from '../table';
import {
  advanceLastEvent,
  moveStatus,
  moveWithRecipients,
  outcomeAttempt,
  outcomeBasisOf,
  outcomeParts,
  possibleAttempts,
  recordFields,
  type OutcomeBasis,
} from './outcome-attempts';
import { toStoredEmail } from './stored-email';

export type { OutcomeBasis };

/**
 * What applyOutcome did: `moved` the status forward, `advanced` last_event only, `recorded` only fields
 * that were still empty, or nothing (`unchanged`); `missing` when the email does not exist for that account.
 * Only `moved` and `advanced` are news worth a webhook.
 */
export type OutcomeWrite = { kind: 'missing' } | { kind: 'moved' | 'advanced' | 'recorded' | 'unchanged'; email: Email };

/** recordRecipients' answer: the tally after its write, and the email as that write left it (the basis of the outcomes that follow). */
export interface RecordedRecipients {
  tally: RecipientTally;
  basis: OutcomeBasis | undefined;
}

/**
 * The email's recipients as SES reported them so far (recordRecipients): addresses reached (delivered or
 * bounced by the receiving side), addresses refused (not sent to), how many recipients the email has, and
 * the first refusal's details (bounce_type, bounce_reason, bounced_at, bounce_category).
 */
export interface RecipientTally {
  reached: number;
  refused: number;
  recipients: number;
  refusal?: Record<string, string>;
}

export class EmailOutcomes {
  constructor(private readonly table: Table) {}

  /**
   * Applies a delivery outcome. Conditional writes, each only when the previous did not apply: (1) move
   * the status forward (and last_event), (2) the status alone, (3) advance last_event only (a repeated
   * delivery_delayed too, while no later event was seen), (4) record the outcome's fields that are still
   * empty. Says which applied (OutcomeWrite), with the email after the write.
   *
   * With a `basis` (the email as a write of this account's email just answered it: recordRecipients), the
   * writes it shows cannot apply are not tried, and when none can, nothing is written: the 49 later
   * Delivery events of a 50-recipient email are one write each (the tally's), not six.
   */
  async applyOutcome(emailId: string, accountId: string | null, outcome: DeliveryOutcome, basis?: OutcomeBasis): Promise<OutcomeWrite> {
    const attempt = outcomeAttempt(this.table, emailId, accountId);
    const parts = outcomeParts(outcome);
    const possible = possibleAttempts(outcome, basis);
    if (outcome.status) {
      const moved = await moveStatus(attempt, outcome.status, parts, possible);
      if (moved) return { kind: 'moved', email: moved };
    }
    const advanced = possible.advanceLastEvent ? await advanceLastEvent(attempt, outcome.event, parts) : null;
    if (advanced) return { kind: 'advanced', email: advanced };
    const recorded = possible.recordFields ? await recordFields(attempt, parts) : null;
    if (recorded) return { kind: 'recorded', email: recorded };
    // Nothing to change; report whether the email exists for that account (the basis's write said it does).
    if (basis) return { kind: 'unchanged', email: basis.email };
    const unchanged = await attempt('SET last_event_rank = last_event_rank', '', {}, {});
    return unchanged ? { kind: 'unchanged', email: unchanged } : { kind: 'missing' };
  }

  /**
   * A reached outcome of an event that names every recipient (apply-ses-event.ts): the status move and the
   * recipients in one write, while none was refused and the email is still before that status. The email
   * after it, or null (nothing written): then recordRecipients and applyOutcome decide as for any event.
   */
  async applyReachedOutcome(emailId: string, accountId: string, addresses: string[], outcome: DeliveryOutcome): Promise<Email | null> {
    if (!outcome.status) return null;
    return moveWithRecipients(outcomeAttempt(this.table, emailId, accountId), outcome.status, outcomeParts(outcome), addresses);
  }

  /**
   * Per recipient (apply-ses-event.ts): adds `addresses` (lower-cased) to the email's set of reached or
   * refused recipients, and for a refusal keeps the first refusal's details, in ONE UpdateItem (ADD to a
   * string set, idempotent under redelivery). The answer is the tally after this write, so of two events
   * racing, the one written second sees both. An empty address list is recorded as `*` (a message-level
   * result). Null when the email does not exist for that account; else the tally and the basis for
   * applyOutcome.
   */
  async recordRecipients(
    emailId: string,
    accountId: string,
    result: 'reached' | 'refused',
    addresses: string[],
    refusal?: Record<string, string>,
  ): Promise<RecordedRecipients | null> {
    const set = new Set(addresses.length ? addresses.map((address) => address.toLowerCase()) : ['*']);
    const item = await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      ReturnValues: 'ALL_NEW',
      UpdateExpression: `ADD #set :addresses${refusal ? ' SET ses_refusal = if_not_exists(ses_refusal, :refusal)' : ''}`,
      ConditionExpression: 'attribute_exists(PK) AND account_id = :account',
      ExpressionAttributeNames: { '#set': result === 'reached' ? 'ses_reached' : 'ses_refused' },
      ExpressionAttributeValues: { ':addresses': set, ':account': accountId, ...(refusal ? { ':refusal': refusal } : {}) },
    });
    return item ? { tally: recipientTally(item), basis: outcomeBasisOf(item) } : null;
  }

  /**
   * Tracking (docs/tracking.md): a human open or click. ONE UpdateItem sets `opened_at` / `clicked_at`
   * where still absent and, when `advance` (the email as the caller read it was behind this event), moves
   * last_event to it, conditional on its rank still being below; only if that condition fails (a bounce or
   * complaint raced in) does a second write set the timestamp alone. Status never moves. Answers the email
   * after the write and whether this write set the timestamp; null when the email is gone (or another account's).
   */
  async recordEngagement(
    emailId: string,
    accountId: string,
    event: EngagementEvent,
    at: string,
    advance: boolean,
  ): Promise<{ email: Email; first: boolean } | null> {
    const field = event === 'opened' ? 'opened_at' : 'clicked_at';
    const write = (withLastEvent: boolean) =>
      updateIfCondition(this.table, {
        Key: keys.email(emailId),
        ReturnValues: 'ALL_OLD',
        UpdateExpression: `SET #field = if_not_exists(#field, :at)${withLastEvent ? ', last_event = :event, last_event_rank = :rank' : ''}`,
        ConditionExpression: `attribute_exists(PK) AND account_id = :account${withLastEvent ? ' AND (attribute_not_exists(last_event_rank) OR last_event_rank < :rank)' : ''}`,
        ExpressionAttributeNames: { '#field': field },
        ExpressionAttributeValues: {
          ':at': at,
          ':account': accountId,
          ...(withLastEvent ? { ':event': event, ':rank': EVENT_RANK[event] } : {}),
        },
      });
    let advanced = advance;
    let old = advance ? await write(true) : null;
    if (old === null) {
      advanced = false;
      old = await write(false);
    }
    if (old === null) return null;
    const first = old[field] === undefined;
    const email = toStoredEmail({ ...old, [field]: old[field] ?? at, ...(advanced ? { last_event: event } : {}) }).email;
    return { email, first };
  }
}

/** The tally of an email item after recordRecipients' write. */
function recipientTally(item: Record<string, unknown>): RecipientTally {
  const bare = (list: unknown) =>
    (Array.isArray(list) ? list : []).map((entry: string) => (parseMailbox(entry)?.email ?? entry).toLowerCase());
  const sizeOf = (value: unknown) => (value instanceof Set ? value.size : 0);
  const refused = item.ses_refused instanceof Set ? item.ses_refused : new Set<string>();
  return {
    reached: sizeOf(item.ses_reached),
    // A message-level refusal (`*`) refuses every recipient.
    refused: refused.has('*') ? Number.MAX_SAFE_INTEGER : refused.size,
    recipients: new Set([...bare(item.to), ...bare(item.cc), ...bare(item.bcc)]).size,
    ...(item.ses_refusal ? { refusal: item.ses_refusal as Record<string, string> } : {}),
  };
}
