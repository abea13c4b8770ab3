/**
 * The email listings over their shards (shared/adapters/store/email-listing.ts), against DynamoDB Local:
 * an account's emails spread over EMAIL_INDEX_SHARDS partition keys of GSI4 (keys only), with emails of
 * before GSI4 (GSI1) and of before the shards (GSI1, all under shard 0) interleaved, page newest first through
 * GET /emails with nothing missed or repeated; a cursor of the
 * one-partition listing still continues; a cursor is bound to its listing; a tenant's listing pages alike;
 * and real sends land on several shards.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { EVENT_RANK } from '#shared/domain/emails/outcomes';
import { newId } from '#shared/domain/ids';
import { EMAIL_INDEX_SHARDS, emailIndexShard } from '#shared/adapters/store/email-index-shard';
import { EmailListingRepository } from '#shared/adapters/store/email-listing';
import { keys } from '#shared/adapters/store/keys';
import { api, newAccount, stack, type TestAccount } from './harness/stack';

const SANDBOX = 'sandbox.mailservice.dev';

function documentClient() {
  const { info } = stack();
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: info.endpoints.dynamodb,
      region: info.region,
      credentials: { accessKeyId: info.env.AWS_ACCESS_KEY_ID!, secretAccessKey: info.env.AWS_SECRET_ACCESS_KEY! },
    }),
  );
}

/**
 * A delivered email item as EmailRepository writes it, its listing entries under `shard` (and a tenant's when
 * given): the account's on GSI4 and the tenant's on GSI5 (keys only), or with `legacy` on GSI1 and GSI3 as emails
 * accepted before GSI4 and GSI5 have them.
 */
async function writeEmail(
  doc: DynamoDBDocumentClient,
  account: TestAccount,
  at: number,
  options: { shard?: number; tenantId?: string; legacy?: boolean } = {},
): Promise<string> {
  const id = newId('msg', at);
  const shard = options.shard ?? emailIndexShard(id);
  const created = new Date(at).toISOString();
  const accountEntry = options.legacy
    ? { GSI1PK: keys.emailsByAccount(account.id, shard), GSI1SK: id }
    : { GSI4PK: keys.emailsByAccount(account.id, shard), GSI4SK: id };
  await doc.send(
    new PutCommand({
      TableName: stack().info.env.TABLE_NAME!,
      Item: {
        ...keys.email(id),
        ...accountEntry,
        ...(options.tenantId
          ? {
              ...(options.legacy
                ? { GSI3PK: keys.emailsByTenant(options.tenantId, shard), GSI3SK: id }
                : { GSI5PK: keys.emailsByTenant(options.tenantId, shard), GSI5SK: id }),
              tenant_id: options.tenantId,
            }
          : {}),
        type: 'email',
        id,
        account_id: account.id,
        from: `Shards <shards@${SANDBOX}>`,
        to: [account.email],
        cc: [],
        bcc: [],
        reply_to: [],
        subject: `shards ${id}`,
        status: 'delivered',
        last_event: 'delivered',
        tags: [],
        headers: {},
        created_at: created,
        delivered_at: created,
        last_event_rank: EVENT_RANK.delivered,
        body: { text: 'listed' },
      },
    }),
  );
  return id;
}

/** GET /emails is limited to 10 requests a second per account (shared/domain/rate-limits.ts): pages 110 ms apart. */
const PAGE_GAP_MS = 110;

/** Every id GET /emails pages through at `limit`, in order, and the number of pages. */
async function pageAll(account: TestAccount, limit: number, cursor?: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let pages = 0;
  for (let next = cursor; ; ) {
    const response = await api('GET', `/emails?limit=${limit}${next ? `&cursor=${encodeURIComponent(next)}` : ''}`, { key: account.key });
    expect(response.status).toBe(200);
    pages++;
    ids.push(...(response.body.emails as { id: string }[]).map((email) => email.id));
    expect(response.body.has_more).toBe(response.body.next_cursor !== null);
    if (!response.body.next_cursor) return { ids, pages };
    next = response.body.next_cursor;
    if (pages > 100) throw new Error('too many pages');
    await new Promise((resolve) => setTimeout(resolve, PAGE_GAP_MS));
  }
}

describe('the email listings over their shards', () => {
  let doc: DynamoDBDocumentClient;
  let account: TestAccount;
  /** Newest first. */
  let expected: string[];

  beforeAll(async () => {
    doc = documentClient();
    account = await newAccount();
    const start = Date.now() - 60_000;
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      // Interleaved in time: one in five written as before the shards (GSI1, every one under shard 0), one in
      // five as before GSI4 (GSI1, sharded), the rest as today (GSI4, keys only).
      ids.push(
        await writeEmail(doc, account, start + i * 100, i % 5 === 0 ? { shard: 0, legacy: true } : i % 5 === 1 ? { legacy: true } : {}),
      );
    }
    expected = ids.reverse();
  });

  afterAll(() => doc.destroy());

  it('spreads the entries over several shards', () => {
    expect(new Set(expected.map((id) => emailIndexShard(id))).size).toBeGreaterThan(Math.min(8, EMAIL_INDEX_SHARDS) - 1);
  });

  it('pages newest first through every shard, nothing missed or repeated, at any page size', async () => {
    for (const limit of [3, 7, 40, 100]) {
      const { ids, pages } = await pageAll(account, limit);
      expect(ids).toEqual(expected);
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
    }
  });

  it('continues a cursor of the one-partition listing (a start key of shard 0) where it was', async () => {
    const after = expected[9]!;
    const legacy = Buffer.from(
      JSON.stringify({ PK: `EMAIL#${after}`, SK: 'EMAIL', GSI1PK: keys.emailsByAccount(account.id, 0), GSI1SK: after }),
      'utf8',
    ).toString('base64url');
    expect((await pageAll(account, 6, legacy)).ids).toEqual(expected.slice(10));
  });

  it("refuses another account's cursor and a forged one (400 at cursor)", async () => {
    const first = await api('GET', '/emails?limit=3', { key: account.key });
    const other = await newAccount();
    for (const cursor of [
      first.body.next_cursor as string,
      Buffer.from(JSON.stringify({ listing: `ACCOUNT#${account.id}#EMAILS`, after: 'not-an-id' })).toString('base64url'),
    ]) {
      const response = await api('GET', `/emails?cursor=${encodeURIComponent(cursor)}`, { key: other.key });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'validation_error', details: { fields: [{ field: 'cursor' }] } });
    }
  });

  it("pages a tenant's listing over its shards alike", async () => {
    const tenantId = newId('ten');
    const start = Date.now() - 30_000;
    const ids: string[] = [];
    // Interleaved: one in four as before the shards (GSI3, shard 0), one in four as before GSI5 (GSI3), the rest on GSI5.
    for (let i = 0; i < 12; i++)
      ids.push(
        await writeEmail(doc, account, start + i * 100, {
          tenantId,
          ...(i % 4 === 0 ? { shard: 0, legacy: true } : i % 4 === 1 ? { legacy: true } : {}),
        }),
      );
    const listing = new EmailListingRepository({ client: doc, name: stack().info.env.TABLE_NAME! });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listing.listByTenant(tenantId, { limit: 5, cursor });
      seen.push(...page.items.map((email) => email.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(ids.reverse());
  });

  it('reads the older index only while the listing has entries there: a process that found none skips it', async () => {
    const queries: Record<string, number> = {};
    const counting = {
      send: (command: any) => {
        if (command instanceof QueryCommand) queries[String(command.input.IndexName)] = (queries[String(command.input.IndexName)] ?? 0) + 1;
        return doc.send(command);
      },
    } as unknown as DynamoDBDocumentClient;
    const listing = new EmailListingRepository({ client: counting, name: stack().info.env.TABLE_NAME! });
    const fresh = await newAccount();
    // In two shards: a shard holding both would be asked twice (its share of the page is one), 17 Queries
    // (random ids put both in one shard once in 16 runs).
    const ids = [
      await writeEmail(doc, fresh, Date.now() - 2000, { shard: 1 }),
      await writeEmail(doc, fresh, Date.now() - 1000, { shard: 2 }),
    ];
    expect((await listing.list(fresh.id, { limit: 10 })).items.map((email) => email.id)).toEqual([...ids].reverse());
    expect(queries).toEqual({ GSI4: 16, GSI1: 16 });
    // Known to have no older entries: the keys-only index alone.
    expect((await listing.list(fresh.id, { limit: 10 })).items.map((email) => email.id)).toEqual([...ids].reverse());
    expect(queries).toEqual({ GSI4: 32, GSI1: 16 });
    // A listing with older entries keeps reading them (the account of the tests above).
    await listing.list(account.id, { limit: 100 });
    await listing.list(account.id, { limit: 100 });
    expect(queries.GSI1).toBeGreaterThanOrEqual(16 * 3);
    // (the tenant test above added emails of its own to that account)
    expect((await listing.list(account.id, { limit: 100 })).items.map((email) => email.id)).toEqual(expect.arrayContaining(expected));
  });

  it('lists real sends, each under the shard of its id, on the keys-only index', async () => {
    const sender = await newAccount();
    const sent: string[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await api('POST', '/emails', {
        key: sender.key,
        body: { from: `a@${SANDBOX}`, to: sender.email, subject: `shard ${i}`, text: 't' },
      });
      expect(response.status).toBe(200);
      sent.push(response.body.id);
    }
    expect((await pageAll(sender, 4)).ids).toEqual([...sent].sort().reverse());
    // The account's entry is on the keys-only GSI4 under the id's shard, none on GSI1 (ALL), which every
    // status write would rewrite whole.
    for (const id of sent) {
      const { Item } = await doc.send(new GetCommand({ TableName: stack().info.env.TABLE_NAME!, Key: keys.email(id) }));
      expect(Item).toMatchObject({ GSI4PK: keys.emailsByAccount(sender.id, emailIndexShard(id)), GSI4SK: id });
      expect(Item).not.toHaveProperty('GSI1PK');
      // Nor what only its acceptance needed (a queued email's usage reservation): every later write is sized
      // on the whole item.
      expect(Item).not.toHaveProperty('usage_reserved');
    }
  });
});
