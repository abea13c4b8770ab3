import { decidePerRecipient, refusalFields } from '#shared/domain/ses/recipient-decision';
import type { DeliveryOutcome } from '#shared/domain/emails/outcomes';

const at = '2026-01-01T00:00:05.000Z';
const sentAt = '2026-01-01T00:00:00.000Z';
const sent = { sent_at: sentAt, provider_message_id: 'ses-1' };
const refusal: DeliveryOutcome = {
  event: 'failed',
  status: 'failed',
  at,
  fields: { bounced_at: at, bounce_reason: 'Not sent: on the list', bounce_type: 'not_sent', ...sent },
};
const delivery: DeliveryOutcome = { event: 'delivered', status: 'delivered', at, fields: { delivered_at: at, ...sent } };

describe('decidePerRecipient', () => {
  it('a refusal is bounced when another recipient was reached, failed when all are refused, held otherwise', () => {
    expect(decidePerRecipient(refusal, 'refused', { reached: 1, refused: 1, recipients: 2 }, sentAt)).toEqual([
      { ...refusal, event: 'bounced', status: 'bounced' },
    ]);
    expect(decidePerRecipient(refusal, 'refused', { reached: 0, refused: 2, recipients: 2 }, sentAt)).toEqual([refusal]);
    expect(decidePerRecipient(refusal, 'refused', { reached: 0, refused: 1, recipients: 2 }, sentAt)).toEqual([
      { event: 'sent', status: 'sent', at: sentAt, fields: sent },
    ]);
  });

  it('a delivery after a refusal is delivered, then bounced with the refusal kept in the tally', () => {
    const tally = { reached: 1, refused: 1, recipients: 2, refusal: refusalFields(refusal) };
    expect(decidePerRecipient(delivery, 'reached', tally, sentAt)).toEqual([
      delivery,
      {
        event: 'bounced',
        status: 'bounced',
        at,
        fields: { bounced_at: at, bounce_reason: 'Not sent: on the list', bounce_type: 'not_sent' },
      },
    ]);
    expect(decidePerRecipient(delivery, 'reached', { reached: 1, refused: 0, recipients: 2 }, sentAt)).toEqual([delivery]);
  });
});
