/**
 * The partition model: per partition key of the table and of each index, the write and read units a phase
 * put on it, and from them the sustained send rate the key design allows on AWS, where one partition takes
 * at most 1,000 write units and 3,000 read units a second
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html).
 * A partition key's ceiling is 1,000 (or 3,000) divided by the units it takes per email; a key named by an
 * account (`<acc>`), a tenant (`<ten>`) or a domain gives the per-account, per-tenant or per-domain rate.
 * Split for heat (DynamoDB moving a hot partition's items to new partitions by sort key) is not counted on:
 * it does not help writes whose sort keys keep increasing (email ids are ULIDs) nor a single hot item
 * (https://aws.amazon.com/blogs/database/part-2-scaling-dynamodb-how-partitions-hot-keys-and-split-for-heat-impact-performance/).
 */
import { shapeOf } from '../observe';
import type { PartitionUnits } from './partition-writes';

export const PARTITION_WRITE_UNITS = 1000;
export const PARTITION_READ_UNITS = 3000;

export interface PartitionRow {
  /** `table` or an index's name. */
  where: string;
  /** The partition key's shape (ids replaced by their kind: `ACCOUNT#<acc>#EMAILS#0`). */
  shape: string;
  /** The busiest key of that shape: write and read units per email. */
  writesPerEmail: number;
  readsPerEmail: number;
  /** Emails per second that key allows: the lower of its write and read ceilings. */
  ceiling: number;
  /** How many keys of that shape the phase touched (a sharded key's shards). */
  keys: number;
  /** Whose rate the ceiling is: account, tenant, domain, or per item (a key per email or less shared). */
  scope: 'account' | 'tenant' | 'domain' | 'item' | 'service';
}

export interface PartitionModel {
  rows: PartitionRow[];
  /** The lowest ceiling of each scope (Infinity when no key of that scope was touched). */
  perAccount: number;
  perTenant: number;
  perDomain: number;
}

export function partitionShape(key: string): string {
  return shapeOf(key)
    .replace(/(DOMAINNAME#|DOMAIN#)[^#|]+/g, '$1<name>')
    .replace(/#\d{1,2}$/, '#<shard>');
}

function scopeOf(shape: string): PartitionRow['scope'] {
  // An API key or SMTP credential belongs to one account, and an account commonly sends through one.
  if (shape.startsWith('APIKEYHASH#')) return 'account';
  if (/<msg>|<inb>|<run>|<whd>|<address>|<sha256>/.test(shape)) return 'item';
  if (shape.includes('<ten>')) return 'tenant';
  if (shape.includes('<name>') || shape.includes('<dom>')) return 'domain';
  if (shape.includes('<acc>')) return 'account';
  return 'service';
}

/**
 * `writes`: the stream's shares by partition; `meteredWrites`: the write units DynamoDB reported for the
 * same window by table or index (`table`, `GSI1`, ...), to which each one's shares are scaled (transactions
 * count twice); `reads`: the product's read units by partition; `emails`: the phase's emails.
 */
export function partitionModel(input: {
  writes: PartitionUnits;
  meteredWrites: Record<string, number>;
  reads: PartitionUnits;
  emails: number;
}): PartitionModel {
  const n = Math.max(1, input.emails);
  const streamTotals: Record<string, number> = {};
  for (const [name, value] of Object.entries(input.writes)) {
    const where = name.split('\t')[0]!;
    streamTotals[where] = (streamTotals[where] ?? 0) + value;
  }
  const scale = (where: string) =>
    streamTotals[where] && input.meteredWrites[where] ? input.meteredWrites[where]! / streamTotals[where]! : 1;
  /** "where\tshape" -> the busiest key's [writes, reads]. */
  const busiest = new Map<string, { writes: number; reads: number }>();
  const keyCount = new Map<string, number>();
  const perKey = new Map<string, { writes: number; reads: number }>();
  const bump = (name: string, kind: 'writes' | 'reads', value: number) => {
    const entry = perKey.get(name) ?? { writes: 0, reads: 0 };
    entry[kind] += value;
    perKey.set(name, entry);
  };
  for (const [name, value] of Object.entries(input.writes)) bump(name, 'writes', value * scale(name.split('\t')[0]!));
  for (const [name, value] of Object.entries(input.reads)) bump(name, 'reads', value);
  for (const [name, used] of perKey) {
    const [where = '', key = ''] = name.split('\t');
    const id = `${where}\t${partitionShape(key)}`;
    keyCount.set(id, (keyCount.get(id) ?? 0) + 1);
    const best = busiest.get(id);
    // The busiest key of a shape: the one whose own ceiling is lowest.
    const load = Math.max(used.writes / PARTITION_WRITE_UNITS, used.reads / PARTITION_READ_UNITS);
    if (!best || load > Math.max(best.writes / PARTITION_WRITE_UNITS, best.reads / PARTITION_READ_UNITS)) busiest.set(id, used);
  }
  const rows: PartitionRow[] = [...busiest].map(([id, used]) => {
    const [where = '', shape = ''] = id.split('\t');
    const writesPerEmail = used.writes / n;
    const readsPerEmail = used.reads / n;
    const ceiling = Math.min(
      writesPerEmail > 0 ? PARTITION_WRITE_UNITS / writesPerEmail : Infinity,
      readsPerEmail > 0 ? PARTITION_READ_UNITS / readsPerEmail : Infinity,
    );
    return { where, shape, writesPerEmail, readsPerEmail, ceiling, keys: keyCount.get(id) ?? 1, scope: scopeOf(shape) };
  });
  rows.sort((a, b) => a.ceiling - b.ceiling);
  const lowest = (scope: PartitionRow['scope']) =>
    Math.min(Infinity, ...rows.filter((row) => row.scope === scope).map((row) => row.ceiling));
  return { rows, perAccount: lowest('account'), perTenant: lowest('tenant'), perDomain: lowest('domain') };
}
