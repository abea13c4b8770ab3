/**
 * An erasure of one address (POST /privacy/erasures; docs/erasure.md): its progress and what it removed,
 * by kind. The record never holds the address, only its hash (./address-hash.ts): the erasure's own record
 * must not be a trace of what it erased. Pure.
 */
import * as z from 'zod';
import { emailAddress } from '../mail/address';
import { ulid } from '../ids';

export const ERASURE_STATUSES = ['running', 'completed'] as const;
export type ErasureStatus = (typeof ERASURE_STATUSES)[number];

/** What an erasure counts, one number per kind of record (objects: the bucket's, of those records). */
export const ERASED_KINDS = [
  'suppressions',
  'category_opt_outs',
  'emails',
  'received_emails',
  'webhook_deliveries',
  'idempotency_records',
  'automation_runs',
  'exports',
  'objects',
] as const;
export type ErasedKind = (typeof ERASED_KINDS)[number];
export type ErasedCounts = Record<ErasedKind, number>;

export const noneErased = (): ErasedCounts => Object.fromEntries(ERASED_KINDS.map((kind) => [kind, 0])) as ErasedCounts;

export interface Erasure {
  id: string;
  account_id: string;
  /** addressHash(account, address): what the continuation works by. */
  address_hash: string;
  status: ErasureStatus;
  /** Counts of what this erasure removed so far. */
  removed: ErasedCounts;
  /** The address had suppressions or opt-outs: they are kept under its hash, so it is still not mailed. */
  suppression_kept_as_hash: boolean;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export const erasureRecordSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  address_hash: z.string(),
  status: z.enum(ERASURE_STATUSES),
  removed: z.object(
    Object.fromEntries(ERASED_KINDS.map((kind) => [kind, z.number().default(0)])) as Record<ErasedKind, z.ZodDefault<z.ZodNumber>>,
  ),
  suppression_kept_as_hash: z.boolean().default(false),
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().nullable().default(null),
});

/** POST /privacy/erasures's body. */
export const createErasureSchema = z
  .object({ email: emailAddress.describe('the address to erase (any case: addresses are compared lower-cased)') })
  .strict();
export type CreateErasureInput = z.output<typeof createErasureSchema>;

/** `era_` and a ULID of its creation (newest sorts last). */
export function newErasureId(now: number): string {
  return `era_${ulid(now)}`;
}

export const isErasureId = (id: string) => /^era_[0-9A-HJKMNP-TV-Z]{26}$/.test(id);

/** The public view: the record without the account and the hash. */
export function toPublicErasure(erasure: Erasure) {
  return {
    id: erasure.id,
    object: 'erasure' as const,
    status: erasure.status,
    removed: erasure.removed,
    suppression_kept_as_hash: erasure.suppression_kept_as_hash,
    created_at: erasure.created_at,
    completed_at: erasure.completed_at,
  };
}
export type PublicErasure = ReturnType<typeof toPublicErasure>;
