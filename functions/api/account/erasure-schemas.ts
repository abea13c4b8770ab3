/** Erasures (POST /privacy/erasures, GET /privacy/erasures/{id}; docs/erasure.md): the answer's shape. */
import * as z from 'zod';
import { ERASED_KINDS, ERASURE_STATUSES, type ErasedKind, type PublicErasure } from '#shared/domain/privacy/erasure';
import { describing, idOf, nullableTimestamp, timestamp } from '#shared/doors/openapi/common-schemas';

const KIND_DESCRIPTIONS: Record<ErasedKind, string> = {
  suppressions: "suppression list entries naming the address (account-wide and tenants'), replaced by its hash",
  category_opt_outs: 'category opt-outs naming the address, replaced by its hash',
  emails: "sent emails naming it (To, Cc, Bcc or Reply-To; tenants' too): record, events, body and attachments",
  received_emails: 'received emails naming it (From, Reply-To, To, Cc or the envelope sender): record, raw message, bodies and attachments',
  webhook_deliveries: 'webhook delivery logs of events naming it',
  idempotency_records: 'idempotency records of sends naming it',
  automation_runs: 'automation runs whose event named it, with their events',
  exports: 'account exports whose files named it, deleted whole (record and files), and exports made before their addresses were indexed',
  objects: 'objects deleted from the bucket (bodies, raw messages, attachments, export files) of those records',
};

export const erasureSchema = describing<PublicErasure>()(
  z.strictObject({
    id: idOf('era').describe('the erasure id'),
    object: z.literal('erasure').describe('always `erasure`'),
    status: z.enum(ERASURE_STATUSES).describe('`running` (GET it again: each GET continues it) or `completed`'),
    removed: z
      .strictObject(
        Object.fromEntries(ERASED_KINDS.map((kind) => [kind, z.number().int().describe(KIND_DESCRIPTIONS[kind])])) as Record<
          ErasedKind,
          z.ZodNumber
        >,
      )
      .describe('what this erasure removed so far, by kind'),
    suppression_kept_as_hash: z
      .boolean()
      .describe('the address was suppressed or opted out: kept as a one-way hash, so it is still not mailed'),
    created_at: timestamp.describe('when the erasure was requested'),
    completed_at: nullableTimestamp.describe('when it completed; null while running'),
  }),
);

export const erasureEnvelopeSchema = z.strictObject({ erasure: erasureSchema.describe('the erasure: its progress and what it removed') });
