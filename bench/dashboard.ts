/**
 * The dashboard's emails page with 100,000 emails (issue 16: "fast on a list of 100,000 emails,
 * paginated server-side"). Prints, never asserts.
 *
 *   npm run bench:dashboard [-- --emails 100000 --samples 30]
 *
 * Method: an in-memory local cloud; an account with one real email sent through the API (sandbox, to the
 * account's own address) and delivered; that email's item cloned --emails times with new time-ordered
 * ids straight into DynamoDB Local (BatchWriteItem: what the send path would have written, without
 * sending 100,000 emails); a dashboard user signed in through POST /dashboard/sign-in. Then, each
 * --samples times, sequentially: GET /dashboard/emails (the first page), the same page two pages back
 * (following "Older"), a search by recipient (reads at most 500 emails from where it stands), and the
 * floor: GET /emails?limit=25 with an API key (the API's own listing of the same index; paced under its 10
 * requests per second), at 1 email and
 * at --emails emails. A page's cost should not grow with the number of emails.
 */
import { parseArgs } from 'node:util';
import { BatchWriteCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ms, summarise, table } from './lib/stats';
import { loadProduct as load, withInMemoryStack } from './lib/bench-stack';

const { values } = parseArgs({ options: { emails: { type: 'string', default: '100000' }, samples: { type: 'string', default: '30' } } });
const EMAILS = Number(values.emails);
const SAMPLES = Number(values.samples);
const log = (message: string) => console.error(`[bench:dashboard] ${message}`);
const sleep = (msec: number) => new Promise((done) => setTimeout(done, msec));

/** `pauseMs` between requests (not timed): GET /emails allows 10 requests per second per account. */
async function timed(
  samples: number,
  run: () => Promise<Response>,
  pauseMs = 0,
): Promise<{ p50: number; p95: number; bytes: number; status: number }> {
  const latencies: number[] = [];
  let bytes = 0;
  let status = 0;
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const response = await run();
    const text = await response.text();
    latencies.push(performance.now() - t0);
    bytes = Buffer.byteLength(text);
    status = response.status;
    if (pauseMs) await sleep(pauseMs);
  }
  const summary = summarise(latencies);
  return { p50: summary.p50, p95: summary.p95, bytes, status };
}

async function main() {
  log('starting an in-memory local cloud');
  await withInMemoryStack('dashboard', {}, async ({ stack }) => {
    const { buildServices } = load('shared/services');
    const { loadConfig } = load('shared/config/config');
    const { createAccount } = load('shared/usecases/access/accounts');
    const { createDashboardUser } = load('shared/usecases/dashboard/users');
    const { newId } = load('shared/domain/ids');
    const { emailIndexShard } = load('shared/adapters/store/email-index-shard');
    const { keys } = load('shared/adapters/store/keys');
    const config = loadConfig(process.env);
    const services = buildServices(config);
    const db: DynamoDBDocumentClient = load('shared/adapters/aws/clients').createAwsClients(config).dynamo;
    const base = stack.apiUrl as string;

    const email = `bench-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const { account, secret } = await createAccount(services, { email, plan: 'dedicated', paymentMethod: true, tenants: false });
    const password = 'bench dashboard password';
    await createDashboardUser(services, { accountId: account.id, email, password });
    const apiKey = { authorization: `Bearer ${secret}` };
    const sent = await fetch(`${base}/emails`, {
      method: 'POST',
      headers: { ...apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ from: `Bench <bench@${config.sandboxDomain}>`, to: email, subject: 'Bench email', text: 'hello' }),
    });
    const { id } = (await sent.json()) as { id: string };
    for (let i = 0; i < 200; i++) {
      const got = (await (await fetch(`${base}/emails/${id}`, { headers: apiKey })).json()) as { email: { status: string } };
      if (got.email.status === 'delivered') break;
      await sleep(50);
    }
    const signIn = await fetch(`${base}/dashboard/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email, password }),
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    if (!cookie.startsWith('svc_session=')) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const page = (path: string) => () => fetch(`${base}${path}`, { headers: { cookie } });
    const api = (path: string) => () => fetch(`${base}${path}`, { headers: apiKey });

    const measure = async () => {
      const first = await timed(SAMPLES, page('/dashboard/emails'));
      const html = await (await page('/dashboard/emails')()).text();
      const older = /href="(\/dashboard\/emails\?[^"]*cursor=[^"]*)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
      let third = { p50: NaN, p95: NaN, bytes: 0, status: 0 };
      if (older) {
        const html2 = await (await fetch(`${base}${older}`, { headers: { cookie } })).text();
        const older2 = /href="(\/dashboard\/emails\?[^"]*cursor=[^"]*)"/g;
        const links = [...html2.matchAll(older2)].map((m) => m[1]!.replace(/&amp;/g, '&'));
        const next = links.find((link) => link !== older) ?? older;
        third = await timed(SAMPLES, page(next));
      }
      const search = await timed(SAMPLES, page(`/dashboard/emails?recipient=${encodeURIComponent('nobody@example.com')}`));
      const floor = await timed(SAMPLES, api('/emails?limit=25'), 150);
      return { first, third, search, floor };
    };

    log('measuring with 1 email');
    const small = await measure();

    log(`cloning the email into ${EMAILS} emails`);
    const { Item } = await db.send(new GetCommand({ TableName: config.tableName, Key: { PK: `EMAIL#${id}`, SK: 'EMAIL' } }));
    if (!Item) throw new Error('the sent email is not in the table');
    const started = Date.now() - EMAILS * 10;
    const batches: Record<string, unknown>[][] = [];
    for (let i = 0; i < EMAILS; i += 25) {
      batches.push(
        Array.from({ length: Math.min(25, EMAILS - i) }, (_, j) => {
          const cloneId = newId('msg', started + (i + j) * 10);
          // Under the shard of its own id, as EmailRepository writes it (shared/adapters/store/email-index-shard.ts).
          return {
            PutRequest: {
              Item: {
                ...Item,
                PK: `EMAIL#${cloneId}`,
                GSI4PK: keys.emailsByAccount(Item.account_id, emailIndexShard(cloneId)),
                GSI4SK: cloneId,
                id: cloneId,
                subject: `Bench email ${i + j}`,
              },
            },
          };
        }),
      );
    }
    let done = 0;
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let batch = batches.pop(); batch; batch = batches.pop()) {
          let pending = batch;
          while (pending.length) {
            const result = await db.send(new BatchWriteCommand({ RequestItems: { [config.tableName]: pending as never } }));
            pending = (result.UnprocessedItems?.[config.tableName] as Record<string, unknown>[] | undefined) ?? [];
          }
          done += batch.length;
          if (done % 20_000 < 25) log(`${done} written (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
        }
      }),
    );

    log(`measuring with ${EMAILS + 1} emails`);
    const large = await measure();

    const row = (label: string, pick: (m: typeof small) => { p50: number; p95: number; bytes: number; status: number }) => [
      label,
      `${ms(pick(small).p50)} / ${ms(pick(small).p95)}`,
      `${ms(pick(large).p50)} / ${ms(pick(large).p95)}`,
      `${(pick(large).bytes / 1024).toFixed(1)} KB (${pick(large).status})`,
    ];
    console.log(
      `\nDashboard emails page (npm run bench:dashboard -- --emails ${EMAILS} --samples ${SAMPLES}), ms p50 / p95, sequential:\n`,
    );
    console.log(
      table(
        ['request', 'with 1 email', `with ${EMAILS + 1} emails`, 'page size at the end'],
        [
          row('GET /dashboard/emails (first page, with charts)', (m) => m.first),
          row('GET /dashboard/emails, two pages back (Older)', (m) => m.third),
          row('GET /dashboard/emails?recipient= (search, no match)', (m) => m.search),
          row('floor: GET /emails?limit=25 (API key)', (m) => m.floor),
        ],
      ),
    );
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
