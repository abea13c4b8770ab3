/**
 * `npm run test:load`'s command line (node's util.parseArgs): what a user points at their own deployment.
 * Refuses a missing or malformed value before anything is sent.
 */
import { parseArgs } from 'node:util';

export interface LoadOptions {
  /** The API's base URL (the deployment's `ApiUrl` output, or http://127.0.0.1:3000 locally). */
  url: string;
  /** An API key with emails:send (and webhooks:write with --webhook-url, emails:read for tracking). */
  key: string;
  /** Sends a second, issued on a fixed schedule (open loop: a slow answer does not slow the schedule). */
  rate: number;
  /** How long, in minutes. */
  minutes: number;
  from: string;
  to: string;
  /** KB of html beside a short text (0: the text only). */
  htmlKb: number;
  /** Requests in flight at most: past it a send due is counted as not issued (the deployment cannot keep up). */
  maxInFlight: number;
  /** One send in this many is followed to `delivered` with GET /emails/{id} (0: none). */
  trackEvery: number;
  /** A public HTTPS URL that forwards to --webhook-listen: an `email.delivered` endpoint for the run, deleted after. */
  webhookUrl?: string;
  webhookListen?: number;
  /**
   * The local cloud's built-in HTTPS receiver is --webhook-url (https://localhost:3001/hooks/...): arrivals are
   * read from its log (GET /_local/webhooks, `received_at`) instead of a listener of this tool's.
   */
  localInbox: boolean;
  /** How long after the last send the tracked emails and webhooks are waited for (seconds). */
  settleSeconds: number;
}

export const LOAD_USAGE = `npm run test:load -- --url <api> --key <key> --from <address> [--rate 10] [--minutes 1]
    [--to success@simulator.amazonses.com] [--html-kb 0] [--max-in-flight 500] [--track-every 10]
    [--webhook-url https://<public>/hooks --webhook-listen <port> | --webhook-url https://localhost:3001/hooks/load --local-inbox]
    [--settle 60]`;

export function parseLoadOptions(args: string[]): LoadOptions {
  const { values } = parseArgs({
    args,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      rate: { type: 'string', default: '10' },
      minutes: { type: 'string', default: '1' },
      from: { type: 'string' },
      to: { type: 'string', default: 'success@simulator.amazonses.com' },
      'html-kb': { type: 'string', default: '0' },
      'max-in-flight': { type: 'string', default: '500' },
      'track-every': { type: 'string', default: '10' },
      'webhook-url': { type: 'string' },
      'webhook-listen': { type: 'string' },
      'local-inbox': { type: 'boolean', default: false },
      settle: { type: 'string', default: '60' },
    },
  });
  if (!values.url || !/^https?:\/\//.test(values.url))
    throw new Error(`--url takes the API's base URL (http:// or https://)\n${LOAD_USAGE}`);
  if (!values.key) throw new Error(`--key takes an API key\n${LOAD_USAGE}`);
  if (!values.from?.includes('@')) throw new Error(`--from takes a sender address at a verified domain\n${LOAD_USAGE}`);
  const number = (name: string, raw: string, min: number, max: number, integer = false): number => {
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value)))
      throw new Error(`--${name} takes ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got '${raw}'`);
    return value;
  };
  if (Boolean(values['webhook-url']) !== Boolean(values['webhook-listen'] || values['local-inbox']))
    throw new Error(
      "--webhook-url takes --webhook-listen (the URL forwards to the port this tool listens on) or --local-inbox (the local cloud's receiver)",
    );
  if (values['webhook-listen'] && values['local-inbox']) throw new Error('--webhook-listen or --local-inbox, not both');
  if (values['webhook-url'] && !values['webhook-url'].startsWith('https://'))
    throw new Error('--webhook-url must be an https:// URL (webhook endpoints are HTTPS)');
  return {
    url: values.url.replace(/\/+$/, ''),
    key: values.key,
    rate: number('rate', values.rate!, 0.1, 10_000),
    minutes: number('minutes', values.minutes!, 0.01, 1440),
    from: values.from,
    to: values.to!,
    htmlKb: number('html-kb', values['html-kb']!, 0, 1000, true),
    maxInFlight: number('max-in-flight', values['max-in-flight']!, 1, 100_000, true),
    trackEvery: number('track-every', values['track-every']!, 0, 1_000_000, true),
    ...(values['webhook-url'] ? { webhookUrl: values['webhook-url'] } : {}),
    ...(values['webhook-listen'] ? { webhookListen: number('webhook-listen', values['webhook-listen'], 1, 65535, true) } : {}),
    localInbox: values['local-inbox']!,
    settleSeconds: number('settle', values.settle!, 0, 3600),
  };
}
