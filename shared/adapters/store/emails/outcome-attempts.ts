/**
 * The conditional writes of EmailOutcomes.applyOutcome (./outcomes.ts), each tried only when the one
 * before did not apply: move the status forward (with last_event, then alone), advance last_event, record
 * the outcome's fields still empty. Each answers the email after the write, or null when its condition failed.
 */
import type { Email, EmailStatus } from '#shared/domain/emails/email';
import { EVENT_RANK, statusesBefore, type DeliveryOutcome } from '#shared/domain/emails/outcomes';
import { REMOVE_DUE } from '../due-index';
import { keys } from '../keys';
import { updateIfCondition, type Table } from '../table';
import { FINAL_STATUSES, toStoredEmail } from './stored-email';

/**
 * What the attempts' conditions test, as a write's answer showed the email: its status, last_event_rank
 * and which of the outcome fields it holds. Taken only once the email left queued and scheduled: from then
 * on each only moves forward (the status to a later one, the rank up, a field once set stays set), so an
 * attempt whose condition it shows false would fail later too, and is not tried.
 */
export interface OutcomeBasis {
  email: Email;
  status: string;
  lastEventRank: number | undefined;
  fields: ReadonlySet<string>;
}

/** The basis an email item gives (a write's answer), or undefined while queued or scheduled (./delivery.ts still moves those). */
export function outcomeBasisOf(item: Record<string, unknown>): OutcomeBasis | undefined {
  const status = item.status;
  if (typeof status !== 'string' || status === 'queued' || status === 'scheduled') return undefined;
  const rank = item.last_event_rank;
  let email: Email | undefined;
  return {
    // Decoded only when an event changes nothing (then it is the answer): the usual event moves the email and answers the write's.
    get email() {
      email ??= toStoredEmail(item).email;
      return email;
    },
    status,
    lastEventRank: typeof rank === 'number' ? rank : undefined,
    fields: new Set(Object.keys(item).filter((name) => item[name] !== undefined && item[name] !== null)),
  };
}

/** Which attempts of applyOutcome could still apply, by the basis (all of them without one). */
export interface PossibleAttempts {
  moveWithLastEvent: boolean;
  moveStatus: boolean;
  advanceLastEvent: boolean;
  recordFields: boolean;
}

export function possibleAttempts(outcome: DeliveryOutcome, basis: OutcomeBasis | undefined): PossibleAttempts {
  const hasFields = Object.keys(outcome.fields).length > 0;
  if (!basis) return { moveWithLastEvent: !!outcome.status, moveStatus: !!outcome.status, advanceLastEvent: true, recordFields: hasFields };
  const rank = EVENT_RANK[outcome.event];
  const before = outcome.status ? (statusesBefore(outcome.status) as string[]).includes(basis.status) : false;
  const seen = basis.lastEventRank;
  const notPast = seen === undefined || (outcome.event === 'delivery_delayed' ? seen <= rank : seen < rank);
  return {
    moveWithLastEvent: before && (seen === undefined || seen <= rank),
    moveStatus: before,
    advanceLastEvent: notPast,
    recordFields: Object.keys(outcome.fields).some((name) => !basis.fields.has(name)),
  };
}

/** One conditional UpdateItem of the email (owned by the account, when one is given): the email after it, or null. */
export type OutcomeAttempt = (
  update: string,
  condition: string,
  names: Record<string, string>,
  values: Record<string, unknown>,
) => Promise<Email | null>;

/** The outcome's parts of an UpdateItem: its fields (each set where still absent) and its last_event. */
export interface OutcomeParts {
  fieldNames: Record<string, string>;
  fieldValues: Record<string, unknown>;
  fieldSets: string[];
  /** One condition per field: it is still absent. */
  fieldMissing: string[];
  lastEventSets: string[];
  lastEventValues: { ':event': string; ':rank': number };
}

export function outcomeAttempt(table: Table, emailId: string, accountId: string | null): OutcomeAttempt {
  const owner = accountId === null ? '' : ' AND account_id = :account';
  const ownerValue = accountId === null ? {} : { ':account': accountId };
  return async (update, condition, names, values) => {
    const item = await updateIfCondition(table, {
      Key: keys.email(emailId),
      UpdateExpression: update,
      ConditionExpression: `attribute_exists(PK)${owner}${condition}`,
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ...(Object.keys({ ...ownerValue, ...values }).length ? { ExpressionAttributeValues: { ...ownerValue, ...values } } : {}),
    });
    return item ? toStoredEmail(item).email : null;
  };
}

export function outcomeParts(outcome: DeliveryOutcome): OutcomeParts {
  const parts: OutcomeParts = {
    fieldNames: {},
    fieldValues: {},
    fieldSets: [],
    fieldMissing: [],
    lastEventSets: ['last_event = :event', 'last_event_rank = :rank'],
    lastEventValues: { ':event': outcome.event, ':rank': EVENT_RANK[outcome.event] },
  };
  for (const [name, value] of Object.entries(outcome.fields)) {
    parts.fieldNames[`#f_${name}`] = name;
    parts.fieldValues[`:f_${name}`] = value;
    parts.fieldSets.push(`#f_${name} = if_not_exists(#f_${name}, :f_${name})`);
    parts.fieldMissing.push(`attribute_not_exists(#f_${name})`);
  }
  return parts;
}

/**
 * Moves the status forward from any status before it: with last_event while no later event was seen, else
 * the status alone (it may still move forward when a more advanced event was seen first, e.g. a bounce
 * after a complaint). Null when the status is already there or past it.
 */
export async function moveStatus(
  attempt: OutcomeAttempt,
  status: EmailStatus,
  parts: OutcomeParts,
  possible: Pick<PossibleAttempts, 'moveWithLastEvent' | 'moveStatus'> = { moveWithLastEvent: true, moveStatus: true },
): Promise<Email | null> {
  const { fieldNames, fieldValues, fieldSets } = parts;
  const before = statusesBefore(status);
  const placeholders = before.map((_, index) => `:before${index}`);
  if (!possible.moveStatus) return null;
  const withLastEvent = moveWithLastEventWrite(status, parts);
  const applied = possible.moveWithLastEvent
    ? await attempt(withLastEvent.update, withLastEvent.condition, withLastEvent.names, withLastEvent.values)
    : null;
  if (applied) return applied;
  return attempt(
    `SET #status = :status${fieldSets.length ? `, ${fieldSets.join(', ')}` : ''}${FINAL_STATUSES.has(status) ? ` REMOVE ${REMOVE_DUE}` : ''}`,
    ` AND #status IN (${placeholders.join(', ')})`,
    { '#status': 'status', ...fieldNames },
    { ':status': status, ...fieldValues, ...Object.fromEntries(before.map((s, i) => [`:before${i}`, s])) },
  );
}

/** moveStatus's first write: the status and last_event moved forward while no later event was seen. */
function moveWithLastEventWrite(status: EmailStatus, parts: OutcomeParts) {
  const { fieldNames, fieldValues, fieldSets, lastEventSets, lastEventValues } = parts;
  const before = statusesBefore(status);
  // A final status takes the email out of the due index; `sent` (reached from queued by an event that
  // overtook the worker's write) waits there for its outcome.
  const leaveDue = FINAL_STATUSES.has(status) ? `, ${REMOVE_DUE}` : '';
  return {
    update: `SET #status = :status, ${[...lastEventSets, ...fieldSets].join(', ')} REMOVE send_lease_until${leaveDue}`,
    condition: ` AND #status IN (${before.map((_, index) => `:before${index}`).join(', ')}) AND (attribute_not_exists(last_event_rank) OR last_event_rank <= :rank)`,
    names: { '#status': 'status', ...fieldNames },
    values: {
      ':status': status,
      ...lastEventValues,
      ...fieldValues,
      ...Object.fromEntries(before.map((s, i) => [`:before${i}`, s])),
    } as Record<string, unknown>,
  };
}

/**
 * A reached recipient's outcome when the event names every recipient of the email: moveStatus's first write
 * with the recipients added to `ses_reached`, in ONE UpdateItem, while no recipient was refused (the tally the
 * two-step path would decide on is then "all reached, none refused": the outcome as it is). Null when its
 * condition fails: the caller takes the two-step path.
 */
export function moveWithRecipients(
  attempt: OutcomeAttempt,
  status: EmailStatus,
  parts: OutcomeParts,
  addresses: string[],
): Promise<Email | null> {
  const write = moveWithLastEventWrite(status, parts);
  return attempt(`${write.update} ADD ses_reached :reached`, `${write.condition} AND attribute_not_exists(ses_refused)`, write.names, {
    ...write.values,
    ':reached': new Set(addresses.map((address) => address.toLowerCase())),
  });
}

/** Advances last_event (and sets the fields still empty) while no later event was seen; a delay may repeat (SES reports each one). */
export function advanceLastEvent(attempt: OutcomeAttempt, event: DeliveryOutcome['event'], parts: OutcomeParts): Promise<Email | null> {
  const notPast = event === 'delivery_delayed' ? 'last_event_rank <= :rank' : 'last_event_rank < :rank';
  return attempt(
    `SET ${[...parts.lastEventSets, ...parts.fieldSets].join(', ')}`,
    ` AND (attribute_not_exists(last_event_rank) OR ${notPast})`,
    parts.fieldNames,
    { ...parts.lastEventValues, ...parts.fieldValues },
  );
}

/** Records the outcome's fields that are still empty (null when none is, or the outcome has none). */
export async function recordFields(attempt: OutcomeAttempt, parts: OutcomeParts): Promise<Email | null> {
  if (!parts.fieldSets.length) return null;
  return attempt(`SET ${parts.fieldSets.join(', ')}`, ` AND (${parts.fieldMissing.join(' OR ')})`, parts.fieldNames, parts.fieldValues);
}
