/**
 * The WebhookSender adapter on node:https, with the SSRF guard at delivery time:
 * 1. the URL's syntactic check (`checkWebhookUrl`);
 * 2. ONE DNS resolution (`lookup(host, { all: true })`); if ANY address is forbidden by the policy the
 *    attempt is refused without connecting;
 * 3. the connection is pinned to the checked addresses through a custom `lookup`, so a rebinding DNS
 *    answer can never be used; TLS SNI, certificate checks and `Host` keep the original hostname.
 * No redirects are followed (a 3xx is a failure), no connection is pooled (`agent: false`), and the whole
 * attempt (DNS, connect, TLS, response headers, excerpt) is bounded by the timeout.
 */
import { promises as dnsPromises, type LookupAddress, type LookupOptions } from 'node:dns';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { isIP } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import tls from 'node:tls';
import {
  RESPONSE_EXCERPT_CHARS,
  WEBHOOK_TIMEOUT_MS,
  WEBHOOK_USER_AGENT,
  type WebhookSendInput,
  type WebhookSendResult,
  type WebhookSender,
} from '../../ports/webhook-sender';
import { checkWebhookUrl, classifyAddress, isForbiddenAddress, type SsrfPolicy } from '../../domain/webhooks/ssrf';
import { withTimeout } from '../../lib/concurrency';

/** Resolves a hostname to every address (dns.promises.lookup with all: true, by default). */
export type HostResolver = (host: string) => Promise<LookupAddress[]>;

export interface HttpsWebhookSenderOptions {
  /** The local cloud's policy: 127/8, ::1 and `localhost` are allowed targets. */
  allowLoopback: boolean;
  /** A PEM file of extra trusted CAs (added to the system's), for HTTPS receivers in tests. */
  extraCaFile?: string;
  /** Default overall timeout of an attempt; 10 s. */
  timeoutMs?: number;
  /** Replaces DNS (tests). */
  resolveHost?: HostResolver;
}

type Outcome = Omit<WebhookSendResult, 'durationMs'>;

const systemResolver: HostResolver = (host) => dnsPromises.lookup(host, { all: true, verbatim: true });

export class HttpsWebhookSender implements WebhookSender {
  private readonly policy: SsrfPolicy;
  /** The trust store with the extra CA, built once: a context built per request (from ~150 roots) costs ~20 ms of CPU each. */
  private readonly secureContext: tls.SecureContext | undefined;
  private readonly timeoutMs: number;
  private readonly resolveHost: HostResolver;

  constructor(options: HttpsWebhookSenderOptions) {
    this.policy = { allowLoopback: options.allowLoopback };
    // Read once at cold start; an unreadable configured CA file is a configuration error, thrown here.
    this.secureContext = options.extraCaFile
      ? tls.createSecureContext({ ca: [...tls.rootCertificates, readFileSync(options.extraCaFile, 'utf8')] })
      : undefined;
    this.timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    this.resolveHost = options.resolveHost ?? systemResolver;
  }

  async send(input: WebhookSendInput): Promise<WebhookSendResult> {
    const started = performance.now();
    const timeoutMs = input.timeoutMs ?? this.timeoutMs;
    const done = (outcome: Outcome): WebhookSendResult => ({
      ...outcome,
      durationMs: Math.round(performance.now() - started),
    });
    const fail = (error: string) => done({ statusCode: null, error, responseExcerpt: null });
    try {
      const checked = checkWebhookUrl(input.url, this.policy);
      if (!checked.ok) return fail(`refused: ${checked.reason}`);
      const host = checked.url.hostname.replace(/^\[(.*)\]$/, '$1');
      const resolved = await withTimeout(this.resolveChecked(host), timeoutMs);
      if (resolved === 'timeout') return fail(`timeout after ${timeoutMs} ms (resolving the host)`);
      if ('error' in resolved) return fail(resolved.error);
      const remainingMs = timeoutMs - (performance.now() - started);
      if (remainingMs <= 0) return fail(`timeout after ${timeoutMs} ms`);
      return done(await this.post(checked.url, host, resolved.addresses, input, remainingMs, timeoutMs));
    } catch (error) {
      return fail(`unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** One resolution; every address must be allowed. Addresses themselves are never echoed back. */
  private async resolveChecked(host: string): Promise<{ addresses: LookupAddress[] } | { error: string }> {
    const family = isIP(host);
    let addresses: LookupAddress[];
    if (family) {
      addresses = [{ address: host, family }];
    } else {
      try {
        addresses = await this.resolveHost(host);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return { error: `could not resolve the host${code ? ` (${code})` : ''}` };
      }
    }
    if (addresses.length === 0) return { error: 'could not resolve the host (no addresses)' };
    for (const { address } of addresses) {
      if (isForbiddenAddress(address, this.policy)) {
        return { error: `refused: the host resolves to a forbidden address (${classifyAddress(address)})` };
      }
    }
    return { addresses };
  }

  private post(
    url: URL,
    host: string,
    addresses: LookupAddress[],
    input: WebhookSendInput,
    remainingMs: number,
    timeoutMs: number,
  ): Promise<Outcome> {
    // `secureContext` reaches tls.connect with the other options (https.request's type omits it).
    const options: PinnedRequestOptions = {
      protocol: 'https:',
      hostname: host,
      port: url.port ? Number(url.port) : 443,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: requestHeaders(input),
      agent: false,
      secureContext: this.secureContext,
      rejectUnauthorized: true,
      lookup: pinnedLookup(addresses),
    };
    return exchange(options, input.body, remainingMs, timeoutMs);
  }
}

type PinnedRequestOptions = https.RequestOptions & Pick<tls.ConnectionOptions, 'secureContext'>;

/** The input's headers (names lower-cased, no Host: the URL's), then ours: JSON, the user agent, the body's length. */
function requestHeaders(input: WebhookSendInput): Record<string, string | number> {
  const headers: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value;
  delete headers.host;
  headers['content-type'] = 'application/json';
  headers['user-agent'] = WEBHOOK_USER_AGENT;
  headers['content-length'] = Buffer.byteLength(input.body, 'utf8');
  return headers;
}

/**
 * One request and its answer within `remainingMs`: the status and an excerpt of the body (read up to
 * RESPONSE_EXCERPT_CHARS), or the error; the request is destroyed once the outcome is decided.
 */
function exchange(options: PinnedRequestOptions, body: string, remainingMs: number, timeoutMs: number): Promise<Outcome> {
  return new Promise<Outcome>((resolve) => {
    let statusCode: number | null = null;
    let excerpt = '';
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy(); // discards the rest of the body and closes the (unpooled) connection
      resolve(outcome);
    };
    const answered = () => settle({ statusCode, error: null, responseExcerpt: excerpt.slice(0, RESPONSE_EXCERPT_CHARS) });

    const request = https.request(options);
    timer = setTimeout(() => {
      // Once the status is known the outcome is decided; a slow body only shortens the excerpt.
      if (statusCode !== null) answered();
      else settle({ statusCode: null, error: `timeout after ${timeoutMs} ms`, responseExcerpt: null });
    }, remainingMs);

    request.on('response', (response) => {
      statusCode = response.statusCode ?? null;
      const decoder = new StringDecoder('utf8');
      response.on('data', (chunk: Buffer) => {
        excerpt += decoder.write(chunk);
        if (excerpt.length >= RESPONSE_EXCERPT_CHARS) answered();
      });
      response.on('end', () => {
        excerpt += decoder.end();
        answered();
      });
      response.on('error', answered);
      response.on('aborted', answered);
    });
    request.on('error', (error) => {
      if (statusCode !== null) answered();
      else settle({ statusCode: null, error: describeError(error), responseExcerpt: null });
    });
    request.end(body);
  });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net/tls that answers with the already-checked addresses only: no second DNS query. */
export function pinnedLookup(addresses: LookupAddress[]) {
  return (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
    const first = usable[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error('no checked address of the requested family');
      error.code = 'ENOTFOUND';
      callback(error, '');
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
]);

/** A short, stable description for the delivery log. */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length) {
    // Several addresses tried (happy eyeballs): report the first failure.
    return describeError(error.errors[0]);
  }
  const err = error as NodeJS.ErrnoException;
  const code = typeof err?.code === 'string' ? err.code : undefined;
  const message = err instanceof Error ? err.message : String(error);
  if (code === 'ECONNREFUSED') return 'connection refused (ECONNREFUSED)';
  if (code === 'ECONNRESET') return 'connection reset (ECONNRESET)';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `host unreachable (${code})`;
  if (code && (TLS_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_'))) {
    return `TLS error: ${message} (${code})`;
  }
  return code ? `${message} (${code})` : message;
}

/**
 * The sender as configured by the environment (the local cloud sets both). `resolveHost`, when given,
 * replaces the system lookup: the service passes its configured resolvers (DNS_RESOLVERS), so delivery
 * resolves hosts exactly as the creation-time check did.
 */
export function senderFromEnv(env: Record<string, string | undefined> = process.env, resolveHost?: HostResolver): HttpsWebhookSender {
  const loopback = (env.WEBHOOK_ALLOW_LOOPBACK ?? '').trim().toLowerCase();
  return new HttpsWebhookSender({
    allowLoopback: loopback === 'true' || loopback === '1',
    extraCaFile: env.WEBHOOK_CA_FILE?.trim() || undefined,
    ...(resolveHost ? { resolveHost } : {}),
  });
}
