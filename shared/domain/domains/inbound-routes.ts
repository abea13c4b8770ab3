/**
 * Inbound routes (docs/inbound.md, "Routes"): per receiving domain, an ordered list; the first route whose
 * match holds for a recipient decides what happens to that recipient's mail. Pure.
 *
 * A match names the recipient's local part (the receiving domain is the route list's own) and, optionally,
 * the envelope sender (MAIL FROM: what the MX listener knows at RCPT TO, before any header):
 *
 *   `billing`     that local part, with or without a `+tag` (billing@, billing+42@); case-insensitive
 *   `support+*`   that local part with a `+tag` only (support+ticket-9@, not support@)
 *   `team-*`      local parts that start with `team-`
 *   `*`           every recipient (a catch-all: put it last)
 *   sender        `someone@example.org` (that address) or `@example.org` (that domain and its subdomains)
 *
 * Actions: `webhooks` (email.received to these endpoints only; with no `webhook_ids`, to every endpoint
 * subscribed to it, as with no route), `store` (recorded, no webhook: GET /received-emails only), `forward`
 * (recorded, no webhook, and sent on to the route's addresses through the send core from the domain itself:
 * ../inbound/forwarded-message.ts), `refuse` (550 at RCPT TO with the route's message: the sender's server
 * bounces it; nothing stored). A recipient no route matches is recorded and published as without routes.
 */
import * as z from 'zod';
import { isId } from '../ids';
import { isEmailAddress, splitAddress } from '../mail/address';

/** Routes per receiving domain: all in the domain's item, read with it (one read per message). */
export const MAX_INBOUND_ROUTES = 50;
/** Webhook endpoints one route names (an account has at most 20). */
export const MAX_ROUTE_WEBHOOKS = 20;
/** Addresses one forward route sends to (each forwarded message is one email to all of them). */
export const MAX_FORWARD_ADDRESSES = 5;

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}$/;

/** A recipient pattern: `name`, `name+*`, `prefix*` or `*` (see above). */
const recipientPattern = z
  .string({ message: 'match.recipient is required: a local part (billing), name+* , prefix* or *' })
  .trim()
  .min(1, 'match.recipient is required: a local part (billing), name+* , prefix* or *')
  .max(64, 'match.recipient is at most 64 characters (a local part)')
  .refine((value) => value === '*' || (LOCAL_PART.test(value) && !value.slice(0, -1).includes('*')), {
    message:
      'match.recipient is a local part without @ (billing), name+* (only tagged addresses), prefix* (starts with) or * (every recipient)',
  })
  .transform((value) => value.toLowerCase());

/** An envelope sender pattern: an address, or `@domain` for a domain and its subdomains. */
const senderPattern = z
  .string({ message: 'match.sender is an address (a@example.org) or @example.org' })
  .trim()
  .max(254, 'match.sender is at most 254 characters')
  .refine((value) => (value.startsWith('@') ? /^@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(value) : splitAddress(value) !== null), {
    message: 'match.sender is an address (a@example.org) or @example.org (that domain and its subdomains)',
  })
  .transform((value) => value.toLowerCase());

const webhooksAction = z.strictObject({
  type: z.literal('webhooks').describe('email.received to these endpoints (or every subscribed one)'),
  webhook_ids: z
    .array(
      z.string().refine((id) => isId('wh', id), 'webhook_ids are endpoint ids (wh_...)'),
      { message: 'webhook_ids is an array of endpoint ids' },
    )
    .min(1, 'webhook_ids names at least one endpoint (omit it for every endpoint subscribed to email.received)')
    .max(MAX_ROUTE_WEBHOOKS, `webhook_ids has at most ${MAX_ROUTE_WEBHOOKS} endpoints`)
    .transform((ids) => [...new Set(ids)])
    .optional()
    .describe('only these endpoints (subscribed to email.received); omitted: every endpoint subscribed to it'),
});
const storeAction = z.strictObject({ type: z.literal('store').describe('recorded, no webhook: GET /received-emails only') });
const forwardAction = z.strictObject({
  type: z.literal('forward').describe('recorded, no webhook, and sent on to `to` from the domain itself'),
  to: z
    .array(
      z
        .string()
        .trim()
        .refine(isEmailAddress, 'to holds addresses (ops@example.org), without names')
        .transform((address) => address.toLowerCase()),
      { message: 'to is an array of addresses' },
    )
    .min(1, 'to names at least one address')
    .max(MAX_FORWARD_ADDRESSES, `to has at most ${MAX_FORWARD_ADDRESSES} addresses`)
    .transform((addresses) => [...new Set(addresses)])
    .describe(
      'where the mail is forwarded: one email to all of them, From the receiving address at the sending domain, Reply-To the original sender',
    ),
});
const refuseAction = z.strictObject({
  type: z.literal('refuse').describe('550 at RCPT TO with `message`; nothing stored'),
  message: z
    .string()
    .trim()
    .min(1, 'message must not be empty')
    .max(200, 'message is at most 200 characters')
    .refine((value) => /^[\x20-\x7e]+$/.test(value), 'message is printable ASCII (it is sent in the SMTP reply)')
    .optional()
    .describe('the text of the 550 reply (default: "Mail to this address is not accepted.")'),
});

export const inboundRouteSchema = z.strictObject({
  description: z.string().trim().max(200, 'description is at most 200 characters').optional().describe('for you: shown, never used'),
  match: z
    .strictObject({
      recipient: recipientPattern.describe('billing (with or without +tag), support+* (tagged only), team-* (starts with) or * (all)'),
      sender: senderPattern.optional().describe('the envelope sender: an address, or @example.org for a domain and its subdomains'),
    })
    .describe('which recipients (and senders) the route is for'),
  action: z
    .discriminatedUnion('type', [webhooksAction, storeAction, forwardAction, refuseAction], {
      message: 'action.type is webhooks, store, forward or refuse',
    })
    .describe('what happens to their mail'),
});
export type InboundRoute = z.output<typeof inboundRouteSchema>;

export const inboundRoutesSchema = z.strictObject({
  routes: z
    .array(inboundRouteSchema, { message: 'routes is an array of routes' })
    .max(MAX_INBOUND_ROUTES, `routes has at most ${MAX_INBOUND_ROUTES} routes`)
    .describe('in order: the first whose match holds decides'),
});
export type InboundRoutesInput = z.output<typeof inboundRoutesSchema>;

/** The 550 text of a refuse route without its own. */
export const DEFAULT_REFUSAL = 'Mail to this address is not accepted.';

/** Whether a recipient pattern holds for a local part (lower-cased). */
function recipientMatches(pattern: string, local: string): boolean {
  if (pattern === '*') return true;
  const plus = local.indexOf('+');
  const base = plus >= 0 ? local.slice(0, plus) : local;
  if (pattern.endsWith('+*')) return plus >= 0 && plus < local.length - 1 && base === pattern.slice(0, -2);
  if (pattern.endsWith('*')) return local.startsWith(pattern.slice(0, -1));
  return base === pattern;
}

function senderMatches(pattern: string | undefined, sender: string): boolean {
  if (pattern === undefined) return true;
  if (!pattern.startsWith('@')) return sender === pattern;
  const domain = splitAddress(sender)?.domain ?? '';
  return domain === pattern.slice(1) || domain.endsWith(`.${pattern.slice(1)}`);
}

/** The first route whose match holds for this recipient and envelope sender ('' for a bounce), or null. */
export function routeFor(routes: readonly InboundRoute[] | undefined, recipient: string, sender: string): InboundRoute | null {
  const local = splitAddress(recipient)?.local.toLowerCase();
  if (!routes?.length || local === undefined) return null;
  const from = sender.toLowerCase();
  return routes.find((route) => recipientMatches(route.match.recipient, local) && senderMatches(route.match.sender, from)) ?? null;
}

/**
 * Who gets email.received for one account's recipients of a message: every endpoint subscribed to it
 * (`all`: a recipient no route matched, or a `webhooks` route without ids), these endpoints only, or none
 * (every recipient's route stores only, forwards, or refuses: a route added after RCPT TO).
 */
export type ReceivedAudience = { kind: 'all' } | { kind: 'only'; webhookIds: string[] } | { kind: 'none' };

export function receivedAudience(
  routes: readonly InboundRoute[] | undefined,
  recipients: readonly string[],
  sender: string,
): ReceivedAudience {
  const ids = new Set<string>();
  for (const recipient of recipients) {
    const route = routeFor(routes, recipient, sender);
    if (!route) return { kind: 'all' };
    if (route.action.type !== 'webhooks') continue;
    if (!route.action.webhook_ids) return { kind: 'all' };
    for (const id of route.action.webhook_ids) ids.add(id);
  }
  return ids.size ? { kind: 'only', webhookIds: [...ids] } : { kind: 'none' };
}

/** One forward route that holds for some of a message's recipients: where it sends, and for whom. */
export interface Forward {
  /** The route's place in the list (part of the forwarded email's id: one email per message and route). */
  routeIndex: number;
  to: string[];
  /** The recipients of the message the route holds for, in order (the first names the forwarded message's From). */
  recipients: string[];
}

/** The forward routes that hold for a message's recipients, each once, in route order. */
export function forwardsFor(routes: readonly InboundRoute[] | undefined, recipients: readonly string[], sender: string): Forward[] {
  const byRoute = new Map<number, Forward>();
  for (const recipient of recipients) {
    const route = routeFor(routes, recipient, sender);
    if (route?.action.type !== 'forward') continue;
    const routeIndex = routes!.indexOf(route);
    const forward = byRoute.get(routeIndex) ?? { routeIndex, to: route.action.to, recipients: [] };
    forward.recipients.push(recipient);
    byRoute.set(routeIndex, forward);
  }
  return [...byRoute.values()].sort((a, b) => a.routeIndex - b.routeIndex);
}
