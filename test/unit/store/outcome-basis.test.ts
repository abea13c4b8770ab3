/**
 * Which of applyOutcome's conditional writes can still apply, by the email as a write just answered it
 * (shared/adapters/store/emails/outcome-attempts.ts): a write it shows cannot apply is not tried, one it
 * shows can is; without a basis (or while the email is queued or scheduled) every write is tried as before.
 */
import type { DeliveryOutcome } from '#shared/domain/emails/outcomes';
import { outcomeBasisOf, possibleAttempts } from '#shared/adapters/store/emails/outcome-attempts';
import { emailItem } from '../../support/stream-records';

/** An email item as the store keeps it (test/support/stream-records.ts), last seen `sent` unless told. */
const item = (extra: Record<string, unknown>) => emailItem('msg_1', { account_id: 'acc_1', last_event: 'sent', ...extra });

const delivered: DeliveryOutcome = {
  event: 'delivered',
  status: 'delivered',
  at: '2026-01-01T00:00:02.000Z',
  fields: { delivered_at: '2026-01-01T00:00:02.000Z', sent_at: '2026-01-01T00:00:01.000Z', provider_message_id: 'ses-1' },
};
const delay: DeliveryOutcome = { event: 'delivery_delayed', at: '2026-01-01T00:00:03.000Z', fields: { provider_message_id: 'ses-1' } };
const bounced: DeliveryOutcome = {
  event: 'bounced',
  status: 'bounced',
  at: '2026-01-01T00:00:04.000Z',
  fields: { bounced_at: '2026-01-01T00:00:04.000Z', bounce_type: 'hard', provider_message_id: 'ses-1' },
};

const all = { moveWithLastEvent: true, moveStatus: true, advanceLastEvent: true, recordFields: true };
const none = { moveWithLastEvent: false, moveStatus: false, advanceLastEvent: false, recordFields: false };

describe('the basis of an outcome write', () => {
  it('is none while the email is queued or scheduled (the send worker still moves those), and then every write is tried', () => {
    expect(outcomeBasisOf(item({ status: 'queued', last_event_rank: 0 }))).toBeUndefined();
    expect(outcomeBasisOf(item({ status: 'scheduled', last_event_rank: 0 }))).toBeUndefined();
    expect(possibleAttempts(delivered, undefined)).toEqual(all);
    expect(possibleAttempts(delay, undefined)).toEqual({ ...all, moveWithLastEvent: false, moveStatus: false });
  });

  it('of a delivered email with every field of a later Delivery: no write can apply', () => {
    const basis = outcomeBasisOf(
      item({
        status: 'delivered',
        last_event: 'delivered',
        last_event_rank: 3,
        delivered_at: 'x',
        sent_at: 'y',
        provider_message_id: 'ses-1',
      }),
    );
    expect(basis).toMatchObject({ status: 'delivered', lastEventRank: 3, email: { id: 'msg_1', status: 'delivered' } });
    expect(possibleAttempts(delivered, basis)).toEqual(none);
    // A delay after the delivery changes nothing either (its rank is below).
    expect(possibleAttempts(delay, basis)).toEqual(none);
  });

  it('of a sent email: the move to delivered can apply', () => {
    const basis = outcomeBasisOf(item({ status: 'sent', last_event_rank: 1, sent_at: 'y', provider_message_id: 'ses-1' }));
    expect(possibleAttempts(delivered, basis)).toEqual(all);
  });

  it('of a delivered email: a bounce moves it on, with its last_event', () => {
    const basis = outcomeBasisOf(
      item({ status: 'delivered', last_event_rank: 3, delivered_at: 'x', sent_at: 'y', provider_message_id: 'ses-1' }),
    );
    expect(possibleAttempts(bounced, basis)).toEqual(all);
  });

  it('of an email that saw a complaint: the status may still move, not last_event', () => {
    const basis = outcomeBasisOf(
      item({ status: 'delivered', last_event: 'complained', last_event_rank: 5, delivered_at: 'x', sent_at: 'y' }),
    );
    expect(possibleAttempts(bounced, basis)).toEqual({
      moveWithLastEvent: false,
      moveStatus: true,
      advanceLastEvent: false,
      recordFields: true,
    });
  });

  it('a field the email lacks (or holds as NULL) can still be recorded; a repeated delay may advance last_event again', () => {
    const basis = outcomeBasisOf(
      item({ status: 'sent', last_event: 'delivery_delayed', last_event_rank: 2, sent_at: 'y', provider_message_id: null }),
    );
    expect(possibleAttempts(delay, basis)).toEqual({
      moveWithLastEvent: false,
      moveStatus: false,
      advanceLastEvent: true,
      recordFields: true,
    });
  });
});
