/**
 * `mailservice listen --forward-to <url>`: the account's webhook events, as they happen, POSTed to a local URL
 * with no public address needed. It adds a pull endpoint (POST /webhooks with `delivery: "pull"`), prints its
 * signing secret, reads its feed (GET /webhooks/{id}/feed) every --interval, forwards each delivery signed with
 * that secret (../listen/forward.ts), shows the answer and reports it (POST .../deliveries/{id}/result); Ctrl-C
 * deletes the endpoint. `mailservice events resend <id>` replays a delivery (POST .../replay): to a running
 * listener, whatever it answered before. docs/webhooks.md, "Receiving events on your laptop".
 */
import type { Command } from 'commander';
import { ApiError, type ApiClient } from '../../api/client';
import { allPages, contextOf } from '../context';
import { CliFailure, UsageError } from '../errors';
import { stopOnInterrupt, type CliIo } from '../io';
import { forwardDelivery, forwardKey, type FeedDelivery, type ForwardResult } from '../listen/forward';
import { positiveInteger } from '../options';
import { printJsonLine } from '../output';

interface CreatedEndpoint {
  webhook: { id: string; events: string[] };
  secret: string;
}

interface EndpointSummary {
  id: string;
  delivery?: string;
}

/** How many forwarded deliveries are remembered (the feed may show one just reported once more). */
const REMEMBERED = 10_000;

/** The local URL: http or https, absolute (a usage error otherwise, before anything is created). */
function forwardUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--forward-to takes an absolute URL such as http://localhost:4000/webhooks (got "${value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--forward-to must be an http or https URL (got "${value}")`);
  return url.href;
}

const eventList = (value: string) =>
  value
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean);

/** `--> email.delivered evt_...` and `<-- [200] 12 ms`, or the JSON line of both. */
function showForward(io: CliIo, json: boolean, delivery: FeedDelivery, result: ForwardResult, url: string): void {
  if (json) {
    printJsonLine(io, {
      type: 'forwarded',
      delivery_id: delivery.id,
      event_id: delivery.event_id,
      event_type: delivery.event_type,
      ...result,
    });
    return;
  }
  const time = new Date().toISOString().replace('T', ' ').slice(0, 19);
  io.out(`${time}  --> ${delivery.event_type} [${delivery.event_id}]\n`);
  const answer = result.status_code === null ? `error: ${result.error}` : `[${result.status_code}]`;
  io.out(`${time}  <-- ${answer} POST ${url} (${result.duration_ms} ms)\n`);
}

/** Whether a failed API call is worth another try on the next read (the network or the service), not the caller's. */
const transient = (error: unknown) => !(error instanceof ApiError) || error.status >= 500 || error.status === 429;

async function listen(
  io: CliIo,
  json: boolean,
  client: ApiClient,
  options: { forwardTo: string; events?: string[]; interval: number },
): Promise<void> {
  const created = await client.post<CreatedEndpoint>('/webhooks', {
    url: options.forwardTo,
    delivery: 'pull',
    ...(options.events ? { events: options.events } : {}),
  });
  const webhookId = created.webhook.id;
  if (json) printJsonLine(io, { type: 'ready', webhook_id: webhookId, secret: created.secret, forward_to: options.forwardTo });
  else {
    io.out(`Ready: forwarding ${options.events ? options.events.join(', ') : 'every event'} to ${options.forwardTo}\n`);
    io.out(`Signing secret: ${created.secret}  (listener endpoint ${webhookId}; Ctrl-C stops and deletes it)\n`);
  }
  const fetchImpl = io.fetch ?? fetch;
  const forwarded = new Set<string>();
  const feed = `/webhooks/${encodeURIComponent(webhookId)}/feed`;
  const stop = stopOnInterrupt(io);
  try {
    let cursor: string | undefined;
    while (!stop.stopped) {
      let more = false;
      try {
        const page = await client.get<{ deliveries: FeedDelivery[]; next_cursor: string | null }>(feed, { limit: 100, cursor });
        for (const delivery of page.deliveries) {
          if (stop.stopped) break;
          const key = forwardKey(delivery);
          if (forwarded.has(key)) continue;
          const result = await forwardDelivery(delivery, { url: options.forwardTo, secret: created.secret, fetch: fetchImpl });
          showForward(io, json, delivery, result, options.forwardTo);
          forwarded.add(key);
          if (forwarded.size > REMEMBERED) forwarded.delete(forwarded.values().next().value!);
          await client
            .post(`/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(delivery.id)}/result`, result)
            .catch((error: unknown) => {
              // 409: reported already (a replay raced it); anything else is shown, and the delivery stays in the feed.
              if (!(error instanceof ApiError && error.status === 409)) throw error;
            });
        }
        // A backlog: the next page at once; else from the start again after the interval (reported ones leave the feed).
        cursor = page.next_cursor ?? undefined;
        more = cursor !== undefined;
      } catch (error) {
        if (!transient(error)) throw error;
        io.err(`Warning: ${(error as Error).message}; reading again in ${options.interval} ms\n`);
        cursor = undefined;
      }
      if (!more && !stop.stopped) await stop.pause(options.interval);
    }
  } finally {
    stop.off();
    await client
      .delete(`/webhooks/${encodeURIComponent(webhookId)}`)
      .then(() =>
        json ? printJsonLine(io, { type: 'stopped', webhook_id: webhookId }) : io.out(`Stopped: listener endpoint ${webhookId} deleted\n`),
      )
      .catch((error: unknown) =>
        io.err(
          `Warning: could not delete the listener endpoint ${webhookId} (${(error as Error).message}); delete it with the API or the dashboard\n`,
        ),
      );
  }
}

/** The delivery id of a delivery or event id (`whd_<ulid>` for `evt_<ulid>`: one per endpoint). */
export function deliveryIdOf(id: string): string {
  const match = /^(?:whd|evt)_([0-9A-HJKMNP-TV-Z]{26})$/.exec(id);
  if (!match) throw new UsageError(`expected a delivery id (whd_...) or an event id (evt_...), got "${id}"`);
  return `whd_${match[1]}`;
}

/**
 * Replays one delivery: to --webhook, else to the account's listener (pull) endpoints that hold it, else to
 * every endpoint that holds it. Answers what each endpoint said.
 */
async function resend(client: ApiClient, id: string, webhook: string | undefined): Promise<{ webhook_id: string; status: string }[]> {
  const deliveryId = deliveryIdOf(id);
  let targets: string[];
  if (webhook) targets = [webhook];
  else {
    const endpoints = await allPages<EndpointSummary>(client, '/webhooks', 'webhooks');
    const listeners = endpoints.filter((endpoint) => endpoint.delivery === 'pull').map((endpoint) => endpoint.id);
    const others = endpoints.filter((endpoint) => endpoint.delivery !== 'pull').map((endpoint) => endpoint.id);
    targets = listeners.length ? listeners : others;
  }
  const outcomes: { webhook_id: string; status: string }[] = [];
  for (const target of targets) {
    const path = `/webhooks/${encodeURIComponent(target)}/deliveries/${encodeURIComponent(deliveryId)}/replay`;
    try {
      const answer = await client.post<{ delivery: { status: string } }>(path);
      outcomes.push({ webhook_id: target, status: answer.delivery.status });
    } catch (error) {
      // An endpoint that never received this event: not one of the targets (unless named).
      if (!webhook && error instanceof ApiError && error.status === 404) continue;
      throw error;
    }
  }
  if (outcomes.length === 0) throw new CliFailure(`No webhook endpoint of the account holds ${deliveryId} (deliveries are kept 30 days).`);
  return outcomes;
}

export function registerListen(program: Command, events: Command, io: CliIo): void {
  program
    .command('listen')
    .description("forward the account's webhook events, signed, to a local URL as they happen (no public URL needed); Ctrl-C stops")
    .requiredOption('--forward-to <url>', 'where each event is POSTed, e.g. http://localhost:4000/webhooks', forwardUrl)
    .option('--events <types>', 'only these event types, comma-separated (default: every type), e.g. email.sent,email.delivered', eventList)
    .option('--interval <ms>', 'time between reads of the feed when it is empty', positiveInteger('--interval', 60_000), 1000)
    .action(async (options: { forwardTo: string; events?: string[]; interval: number }, command: Command) => {
      const ctx = contextOf(io, command);
      if (options.events && options.events.length === 0) throw new UsageError('--events names at least one event type');
      await listen(io, ctx.json, ctx.client(), options);
    });
  events
    .command('resend <id>')
    .description('replay a delivery (whd_...) or an event (evt_...): to your running `listen`, whatever it answered before')
    .option('--webhook <id>', 'to this endpoint only (default: the listener endpoints that received it, else every endpoint that did)')
    .action(async (id: string, options: { webhook?: string }, command: Command) => {
      const ctx = contextOf(io, command);
      const outcomes = await resend(ctx.client(), id, options.webhook);
      if (ctx.json) return printJsonLine(io, { replayed: outcomes });
      for (const outcome of outcomes) io.out(`${deliveryIdOf(id)} replayed to ${outcome.webhook_id} (${outcome.status})\n`);
    });
}
