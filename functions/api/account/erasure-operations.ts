/** The operations of the account group's Privacy part: erasure by address (docs/erasure.md). */
import { createErasureSchema } from '#shared/domain/privacy/erasure';
import { section } from '#shared/doors/openapi/operation';
import { erasureEnvelopeSchema } from './erasure-schemas';

const exampleErasure = {
  id: 'era_01JD8X4Z6Q2W3E4R5T6Y7V8W9X',
  object: 'erasure',
  status: 'completed',
  removed: {
    suppressions: 1,
    category_opt_outs: 0,
    emails: 3,
    received_emails: 1,
    webhook_deliveries: 6,
    idempotency_records: 1,
    automation_runs: 0,
    exports: 1,
    objects: 4,
  },
  suppression_kept_as_hash: true,
  created_at: '2026-11-25T10:00:00.000Z',
  completed_at: '2026-11-25T10:00:01.200Z',
};

export const privacyOps = section('account', 'Privacy', {
  createErasure: {
    method: 'post',
    creates: { param: 'id', at: 'erasure.id' },
    path: '/privacy/erasures',
    summary: 'Erase an address',
    description:
      'Removes every record naming the address across the account and its tenants: emails sent to it (To, Cc, Bcc) with their events, bodies and attachments, emails received from it with their raw messages, webhook delivery logs of events naming it, idempotency records of sends to it, automation runs about it. Its suppressions and category opt-outs are kept as a one-way hash only, so it is still not mailed. Works about 20 seconds, then answers; while `running`, each GET /privacy/erasures/{id} continues it. Erasing an address again finds nothing left.',
    auth: 'apiKey',
    scopes: ['account:admin'],
    body: { schema: createErasureSchema, example: { email: 'jane@example.org' } },
    responses: {
      201: {
        description: 'The erasure: completed, or running (poll GET /privacy/erasures/{id}).',
        schema: erasureEnvelopeSchema,
        example: { erasure: exampleErasure },
      },
    },
    errors: { 403: ['forbidden'] },
  },
  getErasure: {
    method: 'get',
    path: '/privacy/erasures/{id}',
    summary: 'Retrieve (and continue) an erasure',
    description: 'What the erasure removed, by kind, and whether it completed; a running erasure is worked on for about 20 seconds first.',
    auth: 'apiKey',
    scopes: ['account:admin'],
    pathParams: { id: 'the erasure id (era_...)' },
    responses: { 200: { description: 'The erasure.', schema: erasureEnvelopeSchema, example: { erasure: exampleErasure } } },
    errors: { 403: ['forbidden'], 404: ['not_found'] },
  },
});
