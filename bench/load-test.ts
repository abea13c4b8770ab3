/**
 * `npm run test:load`: a sustained load against a deployment of your own (or the local cloud), as users
 * measure a provider: POST /emails at a fixed rate for some minutes, then
 *
 *  - the rate sustained (accepted a second), and the sends due but not issued (too many unanswered);
 *  - POST /emails latency p50 / p95 / p99 as this machine sees it (network included);
 *  - the answers by status and error code (429s, 5xx, connection errors);
 *  - accept to `delivered`: one send in --track-every followed with GET /emails/{id} (p50 / p99);
 *  - accept to the `email.delivered` webhook received, with --webhook-url (a public HTTPS URL that forwards to
 *    --webhook-listen on this machine, e.g. a tunnel; or the local cloud's built-in receiver with
 *    --local-inbox, its log read for the arrival times): an endpoint for the run's events, deleted after.
 *
 *   npm run test:load -- --url <api> --key <key> --from <address> [--rate 10] [--minutes 1] ...
 *
 * Recipients default to SES's mailbox simulator (success@simulator.amazonses.com: delivered, not billed as
 * a real recipient's reputation; the local cloud's SES answers it as SES does). The figures are the
 * deployment's: its region, its quotas (SES's rate paces sends; Lambda's concurrency), its capacity mode.
 * docs/benchmarks.md, "A load test against a deployment".
 */
import { createServer, type Server } from 'node:http';
import { LOAD_USAGE, parseLoadOptions, type LoadOptions } from './load/options';
import { openLoop } from './load/open-loop';
import { htmlOfAbout } from './send/sender';
import { ms, summarise, table } from './lib/stats';

const log = (message: string) => console.error(`[test:load] ${message}`);

async function api(options: LoadOptions, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${options.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${options.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = { raw: text.slice(0, 200) };
  }
  return { status: response.status, json };
}

/** The webhook receiver: the arrival time of each email's `email.delivered` (ms, this machine's clock). */
function listenForWebhooks(port: number): Promise<{ server: Server; arrivals: Map<string, number> }> {
  const arrivals = new Map<string, number>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type?: string; data?: { email_id?: string } };
        if (event.type === 'email.delivered' && event.data?.email_id && !arrivals.has(event.data.email_id))
          arrivals.set(event.data.email_id, Date.now());
      } catch {
        // not an event: answered 200 all the same
      }
      response.writeHead(200).end('ok');
    });
  });
  return new Promise((resolve) => server.listen(port, () => resolve({ server, arrivals })));
}

async function main() {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(LOAD_USAGE);
    return;
  }
  const options = parseLoadOptions(process.argv.slice(2));
  const html = options.htmlKb ? htmlOfAbout(options.htmlKb) : undefined;
  const webhooks = options.webhookListen ? await listenForWebhooks(options.webhookListen) : undefined;
  let endpointId: string | undefined;
  if (options.webhookUrl) {
    const created = await api(options, 'POST', '/webhooks', { url: options.webhookUrl, events: ['email.delivered'] });
    if (created.status >= 300) throw new Error(`POST /webhooks answered ${created.status}: ${JSON.stringify(created.json)}`);
    endpointId = created.json.webhook.id;
    log(
      `webhook endpoint ${endpointId} -> ${options.webhookUrl} (${webhooks ? `listening on ${options.webhookListen}` : 'the local cloud receiver'})`,
    );
  }
  const accepted = new Map<string, number>();
  const tracked: string[] = [];
  const durationMs = options.minutes * 60_000;
  log(
    `${options.rate} sends a second for ${options.minutes} min to ${options.url} (${Math.floor(options.rate * (durationMs / 1000))} sends)`,
  );
  const startedAt = Date.now();
  const progress = setInterval(() => log(`${Math.round((Date.now() - startedAt) / 1000)} s: ${accepted.size} accepted`), 10_000);
  const result = await openLoop({ rate: options.rate, durationMs, maxInFlight: options.maxInFlight }, async (k) => {
    const sent = await api(options, 'POST', '/emails', {
      from: options.from,
      to: options.to,
      subject: `load test ${k}`,
      text: `load test ${k}`,
      ...(html ? { html: html.replace('{n}', String(k)) } : {}),
    });
    if (sent.status === 200 && sent.json?.id) {
      accepted.set(sent.json.id, Date.now());
      if (options.trackEvery && k % options.trackEvery === 0) tracked.push(sent.json.id);
      return { ok: true, label: '200' };
    }
    return { ok: false, label: `${sent.status}${sent.json?.error?.code ? ` ${sent.json.error.code}` : ''}` };
  });
  clearInterval(progress);

  // Accept to delivered, for the tracked sends: polled until delivered (or an end state) within --settle.
  const deliveredMs: number[] = [];
  const endStates: Record<string, number> = {};
  const settleUntil = Date.now() + options.settleSeconds * 1000;
  const open = new Set(tracked);
  while (open.size && Date.now() < settleUntil) {
    for (const id of [...open]) {
      const { status, json } = await api(options, 'GET', `/emails/${id}`);
      const email = json?.email ?? json;
      if (status !== 200 || !email?.status) continue;
      if (['delivered', 'bounced', 'failed', 'complained', 'suppressed', 'cancelled'].includes(email.status)) {
        open.delete(id);
        endStates[email.status] = (endStates[email.status] ?? 0) + 1;
        if (email.status === 'delivered' && email.delivered_at) deliveredMs.push(Date.parse(email.delivered_at) - accepted.get(id)!);
      }
    }
    if (open.size) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  // Accept to the webhook received, for every accepted send whose event arrived within --settle.
  const webhookMs: number[] = [];
  if (options.webhookUrl) {
    const arrivals = webhooks?.arrivals ?? new Map<string, number>();
    const readInbox = async () => {
      if (!options.localInbox) return;
      const { json } = await api(options, 'GET', `/_local/webhooks?path=${encodeURIComponent(new URL(options.webhookUrl!).pathname)}`);
      for (const request of (json?.requests ?? []) as { body: string; received_at: string }[]) {
        try {
          const event = JSON.parse(request.body) as { type?: string; data?: { email_id?: string } };
          if (event.type === 'email.delivered' && event.data?.email_id) arrivals.set(event.data.email_id, Date.parse(request.received_at));
        } catch {
          // not an event
        }
      }
    };
    for (;;) {
      await readInbox();
      if (arrivals.size >= accepted.size || Date.now() >= settleUntil) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    for (const [id, at] of arrivals) if (accepted.has(id)) webhookMs.push(at - accepted.get(id)!);
    if (endpointId) await api(options, 'DELETE', `/webhooks/${endpointId}`);
    webhooks?.server.close();
  }

  const latency = summarise(result.latencies);
  const [delivered, webhook] = [summarise(deliveredMs), summarise(webhookMs)];
  console.log(
    `\ntest:load against ${options.url}: ${options.rate} sends/s for ${options.minutes} min, from ${options.from} to ${options.to}${html ? `, ${options.htmlKb} KB html` : ''}.\n`,
  );
  console.log(
    table(
      ['sends due', 'issued', 'not issued (in flight past the cap)', 'accepted', 'accepted a second', 'p50 / p95 / p99 ms', 'answers'],
      [
        [
          String(result.issued + result.notIssued),
          String(result.issued),
          String(result.notIssued),
          String(result.ok),
          ((result.ok / result.elapsedMs) * 1000).toFixed(1),
          `${ms(latency.p50)} / ${ms(latency.p95)} / ${ms(latency.p99)}`,
          JSON.stringify(result.outcomes),
        ],
      ],
    ),
  );
  console.log(
    `\nAccept -> delivered (GET /emails/{id}, ${tracked.length} tracked, one in ${options.trackEvery}): p50 ${ms(delivered.p50)} ms, p99 ${ms(delivered.p99)} ms; end states ${JSON.stringify(endStates)}${open.size ? `; ${open.size} not settled within ${options.settleSeconds} s` : ''}.`,
  );
  if (options.webhookUrl)
    console.log(
      `Accept -> email.delivered webhook received: p50 ${ms(webhook.p50)} ms, p99 ${ms(webhook.p99)} ms (${webhookMs.length} of ${accepted.size} arrived within ${options.settleSeconds} s).`,
    );
  else console.log('Accept -> webhook: not measured (give --webhook-url with --webhook-listen, or --local-inbox on the local cloud).');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
