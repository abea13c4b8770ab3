/**
 * An SES event that overtakes the send worker's own write (under load, SES's Delivery can be applied before the
 * worker records what SendEmail answered) records the Message-ID recipients saw with the provider's id, from the
 * event's sourceArn region (shared/domain/ses/ses-message-id.ts): a send worker that then finds the email sent
 * republishes email.sent from the record, and its `message_id` is not null (whole run of 2026-11-29: a relay test
 * once got null there). Over in-memory fakes of the email store and the events.
 */
import type { DeliveryOutcome } from '#shared/domain/emails/outcomes';
import { parseSesEvent } from '#shared/domain/ses/ses-event';
import { applySesEvent, type ApplySesEventDeps } from '#shared/usecases/delivery/apply-ses-event';

const delivery = (sourceArn?: string) =>
  JSON.stringify({
    eventType: 'Delivery',
    mail: {
      messageId: '0100019ab7c3a1f2-5d0e2f1a-000000',
      timestamp: '2026-11-29T08:00:00.000Z',
      ...(sourceArn ? { sourceArn } : {}),
      tags: { email_id: ['msg_1'], account_id: ['acc_1'] },
      destination: ['r@example.org'],
    },
    delivery: { timestamp: '2026-11-29T08:00:01.000Z', recipients: ['r@example.org'] },
  });

async function fieldsWritten(body: string): Promise<Record<string, unknown>> {
  const written: DeliveryOutcome[] = [];
  const deps = {
    emails: {
      recordRecipients: async () => ({ tally: { reached: 1, refused: 0, recipients: 1 }, basis: undefined }),
      // Every recipient named and reached: the outcome in one write (as for a one-recipient email).
      applyReachedOutcome: async (_id: string, _account: string, _addresses: string[], outcome: DeliveryOutcome) => {
        written.push(outcome);
        return { id: 'msg_1', account_id: 'acc_1', status: outcome.status, to: [], cc: [], tags: [] };
      },
    },
    events: { publish: async () => undefined },
    bounceSuppression: { categoriesOf: async () => [] },
    suppressions: { addMany: async () => [] },
    categoryOptOuts: {},
    tenants: {},
    clock: { now: () => new Date('2026-11-29T08:00:05.000Z') },
  } as unknown as ApplySesEventDeps;
  await applySesEvent(deps, body);
  expect(written.length).toBeGreaterThan(0);
  return written[0]!.fields;
}

describe("an SES event records the Message-ID recipients saw, with the provider's id", () => {
  it('in us-east-1 at email.amazonses.com, elsewhere at <region>.amazonses.com', async () => {
    expect(await fieldsWritten(delivery('arn:aws:ses:us-east-1:123456789012:identity/example.com'))).toMatchObject({
      provider_message_id: '0100019ab7c3a1f2-5d0e2f1a-000000',
      message_id: '<0100019ab7c3a1f2-5d0e2f1a-000000@email.amazonses.com>',
    });
    expect(await fieldsWritten(delivery('arn:aws:ses:eu-west-1:123456789012:identity/example.com'))).toMatchObject({
      message_id: '<0100019ab7c3a1f2-5d0e2f1a-000000@eu-west-1.amazonses.com>',
    });
  });

  it('an event without a readable sourceArn records no Message-ID (the send worker records it)', async () => {
    expect(await fieldsWritten(delivery())).not.toHaveProperty('message_id');
    expect(parseSesEvent(delivery('not-an-arn'))).not.toHaveProperty('messageId');
  });
});
