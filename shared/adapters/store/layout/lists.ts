/** The key layout of suppressions and opt-outs, erasure's index, and exports (./entity-layout.ts). */
import { exportKeys } from '../exports';
import type { LayoutArea } from './entity-layout';

export const LISTS: LayoutArea = {
  title: 'Suppressions, privacy and exports',
  entities: [
    {
      item: 'suppression',
      description:
        "one item per (list, address), keyed by the address, not the account: the send path's lookups of every recipient spread over the table; both lists of an address share a partition, so a conditional put makes (list, address) unique; listed through GSI1, newest first (the reasoning: `keys.suppression` in shared/adapters/store/keys.ts)",
      pk: 'SUPPRESSION#<acc>#<email>',
      sk: ['ACCOUNT', 'TENANT#<t>'],
      indexes: [
        { index: 'GSI1', pk: ['ACCOUNT#<acc>#SUPPRESSIONS#<shard>', 'ACCOUNT#<acc>#TENANT#<t>#SUPPRESSIONS#<shard>'], sk: '<sup>' },
      ],
      built: (k, v) => [
        { ...k.suppression(v.acc, v.email, null), GSI1PK: k.suppressionsByScope(v.acc, null, 3), GSI1SK: v.sup },
        { ...k.suppression(v.acc, v.email, v.t), GSI1PK: k.suppressionsByScope(v.acc, v.t, 3), GSI1SK: v.sup },
      ],
    },
    {
      item: 'category opt-out',
      description: 'id `cop_…`; read per address on the send path; listed by `GET /suppressions?category=`, newest first',
      pk: 'OPTOUT#<acc>#<email>',
      sk: ['ACCOUNT#CATEGORY#<c>', 'TENANT#<t>#CATEGORY#<c>'],
      indexes: [
        { index: 'GSI1', pk: ['ACCOUNT#<acc>#OPTOUTS#<c>#<shard>', 'ACCOUNT#<acc>#TENANT#<t>#OPTOUTS#<c>#<shard>'], sk: '<cop>' },
        {
          index: 'GSI1',
          pk: 'ACCOUNT#<acc>#TENANT#<t>#OPTOUTS',
          sk: '<email>#<c>',
          note: "tenant opt-outs written before opt-outs had ids; a deleted tenant's clean-up still reads it",
        },
      ],
      built: (k, v) => [
        { ...k.categoryOptOut(v.acc, v.email, null, v.c), GSI1PK: k.optOutsByCategory(v.acc, null, v.c, 3), GSI1SK: v.cop },
        { ...k.categoryOptOut(v.acc, v.email, v.t, v.c), GSI1PK: k.optOutsByCategory(v.acc, v.t, v.c, 3), GSI1SK: v.cop },
        k.categoryOptOutPrefix(v.acc, v.email, null),
        { GSI1PK: k.optOutsByTenant(v.acc, v.t), GSI1SK: `${v.email}#${v.c}` },
      ],
    },
    {
      item: 'address reference',
      description:
        "what names an address: an email's To, Cc, Bcc and Reply-To, a received email's From, Reply-To, To, Cc and envelope sender, the addresses in a webhook delivery's event, a run's event, an export's files; erasure's index (one Query finds everything), TTL of its target; [erasure.md](../erasure.md)",
      pk: 'ADDRESSREF#<acc>#<sha256(acc:address)>',
      sk: '<KIND>#<target PK>#<target SK>',
      built: (k, v) => [
        k.addressRef(v.acc, v['sha256(acc:address)'], `${v.KIND}#${v['target PK']}#${v['target SK']}`),
        { PK: k.addressRefs(v.acc, v['sha256(acc:address)']) },
      ],
    },
    {
      item: 'erased address',
      description:
        "its suppressions and opt-outs, by hash only: read in the send's BatchGetItem beside the suppression keys; [erasure.md](../erasure.md)",
      pk: 'ERASED#<acc>#<sha256(acc:address)>',
      sk: 'ERASED',
      built: (k, v) => [k.erasedAddress(v.acc, v['sha256(acc:address)'])],
    },
    {
      item: 'erasure',
      description: '`POST /privacy/erasures`: progress and counts, never the address',
      pk: 'ERASURE#<acc>#<era>',
      sk: 'ERASURE',
      built: (k, v) => [k.erasure(v.acc, v.era)],
    },
    {
      item: 'export head',
      description: '`POST /exports`: progress, part sizes, lease; 7 d TTL; [exports.md](../exports.md)',
      pk: 'EXPORT#<acc>#<exp>',
      sk: 'HEAD',
      indexes: [{ index: 'GSI1', pk: 'ACCOUNT#<acc>#EXPORTS', sk: '<exp>' }],
      built: (_, v) => [{ ...exportKeys.head(v.acc, v.exp), GSI1PK: exportKeys.byAccount(v.acc), GSI1SK: v.exp }],
    },
    {
      item: 'export slot',
      description: "the account's one running export: taken in the head's creating transaction, given back when it completes",
      pk: 'EXPORT#<acc>#RUNNING',
      sk: 'RUNNING',
      built: (_, v) => [exportKeys.running(v.acc)],
    },
  ],
};
