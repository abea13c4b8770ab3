/** A queued email as the send core hands it to the store (test/unit/store/accept-*.test.ts). */
import type { Email } from '#shared/domain/emails/email';

export const queuedEmail = (createdAt: Date, overrides: Partial<Record<keyof Email, unknown>> = {}): Email =>
  ({
    id: 'msg_1',
    account_id: 'acc_1',
    from: 'a@example.com',
    to: ['b@example.com'],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: 's',
    status: 'queued',
    last_event: 'queued',
    tags: [],
    headers: {},
    created_at: createdAt.toISOString(),
    ...overrides,
  }) as unknown as Email;
