/** The queue messages' schemas (shared/domain/messages.ts): what each worker accepts. */
import { sendMessageSchema, serviceEventSchema, sesEventsBodySchema, webhookDeliveryMessageSchema } from '#shared/domain/messages';

const EMAIL = 'msg_01JD3QZ8X9K2M4N6P8R0S2T4V6';

describe('send message', () => {
  it('is {email_id} with an optional integer schedule_version', () => {
    expect(sendMessageSchema.parse({ email_id: EMAIL })).toEqual({ email_id: EMAIL });
    expect(sendMessageSchema.parse({ email_id: EMAIL, schedule_version: 2 })).toEqual({ email_id: EMAIL, schedule_version: 2 });
    for (const bad of [
      {},
      { email_id: 'msg_x' },
      { email_id: 'acc_01JD3QZ8X9K2M4N6P8R0S2T4V6' },
      { email_id: EMAIL, schedule_version: 1.5 },
      { email_id: EMAIL, schedule_version: '1' },
    ]) {
      expect(sendMessageSchema.safeParse(bad).success).toBe(false);
    }
  });
});

describe('service event', () => {
  const event = {
    id: 'evt_01JD3QZ8X9K2M4N6P8R0S2T4V6',
    type: 'email.sent',
    account_id: 'acc_1',
    created_at: '2025-01-01T00:00:00.000Z',
    data: { email_id: EMAIL },
  };

  it('defaults an absent tenant to null and keeps a given one; a parsed event parses to itself', () => {
    const parsed = serviceEventSchema.parse(event);
    expect(parsed).toEqual({ ...event, tenant: null });
    expect(serviceEventSchema.parse(parsed)).toEqual(parsed);
    expect(serviceEventSchema.parse({ ...event, tenant: 't1' }).tenant).toBe('t1');
  });

  it('refuses unknown types, a missing account and data that is not an object', () => {
    expect(serviceEventSchema.safeParse({ ...event, type: 'email.exploded' }).success).toBe(false);
    expect(serviceEventSchema.safeParse({ ...event, account_id: undefined }).success).toBe(false);
    expect(serviceEventSchema.safeParse({ ...event, data: null }).success).toBe(false);
    expect(serviceEventSchema.safeParse({ ...event, data: 'x' }).success).toBe(false);
  });
});

describe('webhook delivery message', () => {
  it('is {webhook_id, delivery_id, attempt >= 1, retry_base? >= 0}', () => {
    const message = { webhook_id: 'wh_1', delivery_id: 'whd_1', attempt: 2, retry_base: 1 };
    expect(webhookDeliveryMessageSchema.parse(message)).toEqual(message);
    expect(webhookDeliveryMessageSchema.parse({ ...message, retry_base: undefined })).toEqual({
      webhook_id: 'wh_1',
      delivery_id: 'whd_1',
      attempt: 2,
    });
    expect(webhookDeliveryMessageSchema.safeParse({ ...message, attempt: 0 }).success).toBe(false);
    expect(webhookDeliveryMessageSchema.safeParse({ ...message, attempt: 1.5 }).success).toBe(false);
    expect(webhookDeliveryMessageSchema.safeParse({ ...message, webhook_id: 1 }).success).toBe(false);
  });
});

describe('SES events body', () => {
  const sesEvent = { eventType: 'Delivery', mail: { messageId: 'm' } };

  it("answers the SES event's JSON from SNS's envelope, or from a raw-delivered body", () => {
    const message = JSON.stringify(sesEvent);
    expect(sesEventsBodySchema.parse({ Type: 'Notification', MessageId: 'x', TopicArn: 'arn', Message: message })).toBe(message);
    expect(JSON.parse(sesEventsBodySchema.parse(sesEvent))).toEqual(sesEvent);
  });

  it('refuses a body that is not a JSON object', () => {
    for (const bad of [null, 'text', 3, [sesEvent]]) expect(sesEventsBodySchema.safeParse(bad).success).toBe(false);
  });
});
