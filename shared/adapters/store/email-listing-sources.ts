/**
 * What an email listing (./email-listing.ts) reads: its keys-only index and the older emails' index, under
 * the same sharded partition keys, and where a cursor continues (an id of this listing, or a start key of
 * the one-partition listing of before the shards).
 */
import { ValidationError } from '../../domain/errors';

/** One index a listing reads, under EMAIL_INDEX_SHARDS partition keys. */
export interface ListingSource {
  index: 'GSI1' | 'GSI3' | 'GSI4' | 'GSI5';
  /** The index projects only keys: the page's emails are read from the table. */
  keysOnly: boolean;
}

export interface Listing {
  /** Where the entries are (merged): the listing's index, and the older emails' index. */
  sources: ListingSource[];
  /** The partition key of shard `n` (the same in every source). */
  partition: (shard: number) => string;
  /** What a cursor is bound to: the listing's partition key without its shard. */
  owner: string;
  /** The index of the start keys of the one-partition listing, which a cursor may still be. */
  legacyCursorIndex: 'GSI1' | 'GSI3';
}

/** A listing: its keys-only index merged with the index its older emails are on (ALL), under the same keys. */
export function listingOf(index: 'GSI4' | 'GSI5', older: 'GSI1' | 'GSI3', partition: (shard: number) => string, owner: string): Listing {
  return {
    sources: [
      { index, keysOnly: true },
      { index: older, keysOnly: false },
    ],
    partition,
    owner,
    legacyCursorIndex: older,
  };
}

const invalidCursor = () =>
  new ValidationError('The cursor is invalid. Pass next_cursor from the previous page unchanged.', {
    details: { fields: [{ field: 'cursor', message: 'invalid cursor' }] },
  });

const ID = /^msg_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * The id a cursor continues after: `{listing, after}` of this listing, or a start key of its shard 0 from
 * before the shards (`{PK, SK, <index>PK, <index>SK}`). Anything else is 400 at `cursor`.
 */
export function cursorAfter(cursor: string | undefined, listing: Listing): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  let parsed: Record<string, unknown> | undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    parsed = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed) throw invalidCursor();
  const names = Object.keys(parsed).sort().join(',');
  if (names === 'after,listing' && parsed.listing === listing.owner && typeof parsed.after === 'string' && ID.test(parsed.after))
    return parsed.after;
  const pk = `${listing.legacyCursorIndex}PK`;
  const sk = `${listing.legacyCursorIndex}SK`;
  const legacy =
    names === [pk, sk, 'PK', 'SK'].sort().join(',') &&
    parsed[pk] === listing.partition(0) &&
    typeof parsed[sk] === 'string' &&
    ID.test(parsed[sk] as string) &&
    parsed.PK === `EMAIL#${parsed[sk]}` &&
    parsed.SK === 'EMAIL';
  if (legacy) return parsed[sk] as string;
  throw invalidCursor();
}
