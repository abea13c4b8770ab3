/**
 * Who sends, and the send the API phases make: a `dedicated`-plan account with a payment method (no daily
 * or monthly cap) and a verified domain, set up through the product and the API (with --template, a
 * published product template with managed unsubscribe), so sends are production sends from
 * bench@<domain> to success+<n>@simulator.amazonses.com; each send numbered in one sequence per target.
 */
import { jsonCaller, verifiedDomain, type JsonCall } from '../lib/fixtures';
import { HttpClient, serverTimingMs, type HttpResponse, type Outcome } from '../lib/load';
import type { CreateAccount } from './stack-session';

export interface ApiSender {
  /** The API key's header and the JSON content type. */
  headers: Record<string, string>;
  account: { id: string };
  secret: string;
  domainName: string;
  /** The set-up's client (4 connections): the fixtures, and the floors' template sends. */
  setup: HttpClient;
  recipient(n: number): string;
  /** POST /emails for send `n`: ok with the email's id, or the status and error code. */
  apiSend(client: HttpClient, n: number): Promise<Outcome & { id?: string }>;
  /** The next send's number. */
  nextNumber(): number;
  /** The plain sends from now on carry an html body of about `kb` KB beside the text (0: the text only). */
  useHtmlKb(kb: number): void;
  /** With `tracked`: the ids of the emails accepted so far, in order (the opens are made on them). */
  acceptedIds: string[];
}

/** A receipt-like html body of about `kb` KB (a table of order lines), `{n}` where the send's number goes. */
export function htmlOfAbout(kb: number): string {
  const line = (i: number) =>
    `<tr><td style="padding:4px 8px;border-bottom:1px solid #eee">Item ${i}</td><td style="text-align:right">$${(i * 3.17).toFixed(2)}</td></tr>`;
  let rows = '';
  for (let i = 1; Buffer.byteLength(rows) < kb * 1024 - 200; i++) rows += line(i);
  return `<html><body><p>Order {n}</p><table>${rows}</table></body></html>`;
}

export async function setUpSender(context: {
  apiUrl: string;
  services: unknown;
  createAccount: CreateAccount;
  template: boolean;
  /** Open and click tracking on the domain, and an html body with a link. */
  tracked?: boolean;
  /** Every send as one tenant of the account (`bench`). */
  tenant?: boolean;
  /** An html body of about this many KB beside the text (0: text only), as real transactional emails have; `useHtmlKb` changes it. */
  htmlKb?: number;
}): Promise<ApiSender> {
  const suffix = Math.random().toString(36).slice(2, 8);
  const { account, secret } = await context.createAccount(context.services, {
    email: `bench-${suffix}@example.com`,
    plan: 'dedicated',
    paymentMethod: true,
    tenants: context.tenant ?? false,
  });
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
  const setup = new HttpClient(context.apiUrl, 4);
  const call = jsonCaller(setup, headers);
  const domainName = `bench-${suffix}.example-mail.test`;
  const domain = await verifiedDomain(call, domainName);
  if (context.tracked) await call('PATCH', `/domains/${domain.id}`, { open_tracking: true, click_tracking: true });
  const from = `bench@${domainName}`;
  if (context.template) await publishTemplate(call);
  if (context.tenant) await call('POST', '/tenants', { external_id: 'bench', name: 'Bench' });
  const asTenant = context.tenant ? { tenant: 'bench' } : {};
  const recipient = (n: number) => `success+${n}@simulator.amazonses.com`;
  const tracked = (n: number) => ({
    from,
    to: recipient(n),
    subject: `bench ${n}`,
    html: `<html><body><p>hello ${n}</p><p><a href="https://example.com/orders/${n}">Your order</a></p></body></html>`,
    text: 'hello',
  });
  let html = context.htmlKb ? htmlOfAbout(context.htmlKb) : undefined;
  const plain = (n: number) => ({
    from,
    to: recipient(n),
    subject: `bench ${n}`,
    text: 'hello',
    ...(html ? { html: html.replace('{n}', String(n)) } : {}),
  });
  const sendBody = (n: number) =>
    JSON.stringify({
      ...(context.template
        ? { from, to: recipient(n), template: { id: 'bench', variables: { n } } }
        : context.tracked
          ? tracked(n)
          : plain(n)),
      ...asTenant,
    });
  let sequence = 0;
  const acceptedIds: string[] = [];
  return {
    headers,
    account,
    secret,
    domainName,
    setup,
    recipient,
    nextNumber: () => sequence++,
    useHtmlKb: (kb) => {
      html = kb ? htmlOfAbout(kb) : undefined;
    },
    acceptedIds,
    apiSend: async (client, n) => {
      const outcome = outcomeOf(await client.request('POST', '/emails', headers, sendBody(n)));
      if (context.tracked && outcome.id) acceptedIds.push(outcome.id);
      return outcome;
    },
  };
}

/** The bench's template (alias `bench`): a product template with a number variable and managed unsubscribe, published. */
async function publishTemplate(call: JsonCall) {
  await call('POST', '/templates', {
    alias: 'bench',
    name: 'Bench',
    category: 'product',
    subject: 'bench {{n}}',
    html: '<p>hello {{n}}</p><p><a href="{{unsubscribe_url}}">Unsubscribe</a></p>',
    text: 'hello {{n}} {{unsubscribe_url}}',
    variables: [{ key: 'n', type: 'number' }],
  });
  await call('POST', '/templates/bench/publish');
}

/** A POST /emails answer as the load generator records it: 200 with the email's id, else the status and error code. */
function outcomeOf(response: HttpResponse): Outcome & { id?: string } {
  const serverMs = serverTimingMs(response.headers);
  if (response.status === 200) return { ok: true, label: '200', id: (JSON.parse(response.text) as { id: string }).id, serverMs };
  let code = '';
  try {
    code = (JSON.parse(response.text) as { error?: { code?: string } }).error?.code ?? '';
  } catch {
    // not JSON
  }
  return { ok: false, label: `${response.status}${code ? ` ${code}` : ''}`, serverMs };
}
