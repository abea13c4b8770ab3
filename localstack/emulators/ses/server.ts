/**
 * HTTP wire format: SESv2 REST-JSON routes (paths as in @aws-sdk/client-sesv2), the local viewer
 * routes, and a prompt error for everything else (never a hanging request).
 */
import * as http from 'node:http';
import { SesError, errorResponse } from './errors';
import type { AccountLimits } from './account-limits';
import type { FeedbackForwarding } from './feedback-forwarding';
import type { SuppressionList } from './suppression-list';
import type { IdentityService } from './identities';
import type { TenantService } from './tenants';
import { escapeHtml } from './mailbox-html';
import { requestId } from './ids';
import { MAX_MESSAGE_BYTES, type SesService } from './service';
import { MessageQueryError, parseMessageQuery, type MessageQuery } from './message-query';
import type { LocalSesIdentity, LocalSesMessage, LocalSesMessageSummary, LocalSesTenant, OperationResult } from './types';
import { isObject, type Json } from './validate';

/** Base64 grows 4/3; leave room for the rest of the JSON body. */
const MAX_BODY_BYTES = Math.ceil((MAX_MESSAGE_BYTES * 4) / 3) + 1024 * 1024;

export interface Viewer {
  findMessages(query: MessageQuery): (LocalSesMessage | LocalSesMessageSummary)[];
  listIdentities(): LocalSesIdentity[];
  listTenants(): LocalSesTenant[];
  mailboxHtml(): string;
  rawMessage(id: string): Buffer | undefined;
}

export interface ServerDeps {
  service: SesService;
  identities: IdentityService;
  tenants: TenantService;
  account: AccountLimits;
  suppression: SuppressionList;
  feedback: FeedbackForwarding;
  viewer: Viewer;
  /** Marks an email-address identity verified, as following SES's verification link does; false when there is none. */
  confirmIdentity: (address: string) => boolean;
  log: (msg: string) => void;
  /** Resolves once the changes made so far are on disk: an answered change must survive a crash. */
  durable: () => Promise<void>;
}

class BodyTooLarge extends Error {}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return; // keep draining, drop the data
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!tooLarge) resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

async function readJson(req: http.IncomingMessage): Promise<Json> {
  const body = await readBody(req);
  if (body.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new SesError('SerializationException', 'The request body is not valid JSON.');
  }
  if (!isObject(parsed)) throw new SesError('SerializationException', 'The request body must be a JSON object.');
  return parsed;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new SesError('BadRequestException', `Malformed path segment '${segment}'.`);
  }
}

function send(res: http.ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

function optInt(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new SesError('BadRequestException', 'PageSize must be an integer.');
  return n;
}

type Route = (req: http.IncomingMessage) => Promise<OperationResult> | OperationResult;

/** The SESv2 operation for a method and the path segments after /v2/email, or undefined. */
function v2Route(service: SesService, method: string, rest: string[], url: URL): Route | undefined {
  const [a, b, c, d, ...extra] = rest;
  if (extra.length > 0) return undefined;
  if (a === 'outbound-emails' && b === undefined && method === 'POST') return async (req) => service.sendEmail(await readJson(req));
  if (a === 'list-configuration-sets' && b === undefined && method === 'POST') {
    return async (req) => {
      const body = await readJson(req);
      return service.listConfigurationSets(typeof body.NextToken === 'string' ? body.NextToken : undefined, optInt(body.PageSize));
    };
  }
  if (a !== 'configuration-sets') return undefined;
  if (b === undefined) {
    if (method === 'POST') return async (req) => service.createConfigurationSet(await readJson(req));
    if (method === 'GET') {
      return () => service.listConfigurationSets(url.searchParams.get('NextToken') ?? undefined, optInt(url.searchParams.get('PageSize')));
    }
    return undefined;
  }
  if (c === undefined) {
    if (method === 'GET') return () => service.getConfigurationSet(b);
    if (method === 'DELETE') return () => service.deleteConfigurationSet(b);
    return undefined;
  }
  if (c !== 'event-destinations') return undefined;
  if (d === undefined) {
    if (method === 'POST') return async (req) => service.createEventDestination(b, await readJson(req));
    if (method === 'GET') return () => service.getEventDestinations(b);
    return undefined;
  }
  if (method === 'PUT') return async (req) => service.updateEventDestination(b, d, await readJson(req));
  if (method === 'DELETE') return () => service.deleteEventDestination(b, d);
  return undefined;
}

/** The SESv2 email identity operation for a method and the path segments after /v2/email, or undefined. */
function identityRoute(identities: IdentityService, method: string, rest: string[], url: URL): Route | undefined {
  const [a, b, c, d, ...extra] = rest;
  if (extra.length > 0) return undefined;
  if (a === 'list-identities' && b === undefined && method === 'POST') {
    return async (req) => {
      const body = await readJson(req);
      return identities.listEmailIdentities(typeof body.NextToken === 'string' ? body.NextToken : undefined, optInt(body.PageSize));
    };
  }
  if (a !== 'identities') return undefined;
  if (b === undefined) {
    if (method === 'POST') return async (req) => identities.createEmailIdentity(await readJson(req));
    if (method === 'GET') {
      return () => identities.listEmailIdentities(url.searchParams.get('NextToken') ?? undefined, optInt(url.searchParams.get('PageSize')));
    }
    return undefined;
  }
  if (c === undefined) {
    if (method === 'GET') return () => identities.getEmailIdentity(b);
    if (method === 'DELETE') return () => identities.deleteEmailIdentity(b);
    return undefined;
  }
  if (method !== 'PUT') return undefined;
  if (c === 'dkim' && d === 'signing') return async (req) => identities.putDkimSigningAttributes(b, await readJson(req));
  if (c === 'mail-from' && d === undefined) return async (req) => identities.putMailFromAttributes(b, await readJson(req));
  return undefined;
}

/**
 * The SESv2 tenant operations: all POST with a JSON body (paths as in @aws-sdk/client-sesv2), or undefined.
 * `/v2/email/tenants[/get|/list|/delete|/resources[/delete|/list]]` and `/v2/email/resources/tenants/list`.
 */
function tenantRoute(tenants: TenantService, method: string, rest: string[]): Route | undefined {
  // A tenant's reputation entity (tenant-status.ts): GET .../{Type}/{Reference}, PUT .../customer-managed-status.
  if (rest[0] === 'reputation' && rest[1] === 'entities' && rest.length >= 4) {
    const [, , type, reference, tail] = rest as [string, string, string, string, string | undefined];
    if (rest.length === 4 && method === 'GET') return () => tenants.getReputationEntity(type, reference);
    if (rest.length === 5 && tail === 'customer-managed-status' && method === 'PUT')
      return async (req) => tenants.updateCustomerManagedStatus(type, reference, await readJson(req));
    return undefined;
  }
  if (method !== 'POST') return undefined;
  const path = rest.join('/');
  const ops: Record<string, (body: Json) => OperationResult> = {
    tenants: (body) => tenants.createTenant(body),
    'tenants/get': (body) => tenants.getTenant(body),
    'tenants/list': (body) => tenants.listTenants(body),
    'tenants/delete': (body) => tenants.deleteTenant(body),
    'tenants/resources': (body) => tenants.createAssociation(body),
    'tenants/resources/delete': (body) => tenants.deleteAssociation(body),
    'tenants/resources/list': (body) => tenants.listTenantResources(body),
    'resources/tenants/list': (body) => tenants.listResourceTenants(body),
  };
  const op = Object.hasOwn(ops, path) ? ops[path] : undefined;
  return op ? async (req) => op(await readJson(req)) : undefined;
}

/** PutAccountSendingAttributes (account-limits.ts), or undefined; GetAccount is suppressionRoute's (it adds SuppressionAttributes). */
function accountRoute(account: AccountLimits, method: string, rest: string[]): Route | undefined {
  if (rest[0] !== 'account') return undefined;
  if (rest.length === 2 && rest[1] === 'sending' && method === 'PUT')
    return async (req) => account.putSendingAttributes(await readJson(req));
  return undefined;
}

/**
 * Suppression lists (suppression-list.ts) and feedback forwarding (feedback-forwarding.ts), paths as in
 * @aws-sdk/client-sesv2: PUT account/suppression, PUT|GET suppression/addresses, GET|DELETE
 * suppression/addresses/{EmailAddress}, POST tenant/suppression, PUT
 * configuration-sets/{name}/suppression-options, PUT identities/{identity}/feedback; and GetAccount's
 * SuppressionAttributes added to account-limits.ts's answer. Undefined for anything else.
 */
function suppressionRoute(
  deps: { suppression: SuppressionList; feedback: FeedbackForwarding; account: AccountLimits },
  method: string,
  rest: string[],
  url: URL,
): Route | undefined {
  const { suppression, feedback, account } = deps;
  const [a, b, c, d, ...extra] = rest;
  if (extra.length > 0) return undefined;
  const tenantName = url.searchParams.get('TenantName');
  if (a === 'account' && c === undefined) {
    if (b === undefined && method === 'GET')
      return () => ({ body: { ...account.getAccount().body, SuppressionAttributes: suppression.accountAttributes() } });
    if (b === 'suppression' && method === 'PUT') return async (req) => suppression.putAccountAttributes(await readJson(req));
  }
  if (a === 'suppression' && b === 'addresses' && d === undefined) {
    if (c === undefined && method === 'PUT') return async (req) => suppression.putDestination(await readJson(req));
    if (c === undefined && method === 'GET') return () => suppression.listDestinations(url.searchParams);
    if (c !== undefined && method === 'GET') return () => suppression.getDestination(c, tenantName);
    if (c !== undefined && method === 'DELETE') return () => suppression.deleteDestination(c, tenantName);
  }
  if (a === 'tenant' && b === 'suppression' && c === undefined && method === 'POST')
    return async (req) => suppression.putTenantAttributes(await readJson(req));
  if (a === 'configuration-sets' && b && c === 'suppression-options' && d === undefined && method === 'PUT') {
    return async (req) => suppression.putConfigurationSetOptions(b, await readJson(req));
  }
  if (a === 'identities' && b && c === 'feedback' && d === undefined && method === 'PUT')
    return async (req) => feedback.putFeedbackAttributes(b, await readJson(req));
  return undefined;
}

function v1ErrorXml(action: string, rid: string): string {
  const message = `SES v1 (Query API) action '${action}' is not supported by the local SES emulator; use the SESv2 API (@aws-sdk/client-sesv2).`;
  return `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>InvalidAction</Code><Message>${escapeHtml(message)}</Message></Error><RequestId>${rid}</RequestId></ErrorResponse>`;
}

export function createSesServer(deps: ServerDeps): http.Server {
  const { service, identities, tenants, account, suppression, feedback, viewer, confirmIdentity, log, durable } = deps;

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const rid = requestId();
    const method = (req.method ?? 'GET').toUpperCase();
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const segments = url.pathname
        .split('/')
        .filter((s) => s.length > 0)
        .map(decodeSegment);

      // Local only: the account's switches and quota (suspension has no SES API), account-limits.ts.
      if (segments[0] === '_local' && segments[1] === 'account' && segments.length === 2 && (method === 'GET' || method === 'POST')) {
        const state = method === 'POST' ? account.setLocal(await readJson(req)) : account.localState();
        send(res, 200, { 'content-type': 'application/json' }, JSON.stringify(state));
        return;
      }
      // Local only: an address identity's verification link followed (SES mails the link; the emulator
      // sends none, docs/local-cloud/ses.md "Identity verification"), for sandbox recipients and senders.
      if (
        segments[0] === '_local' &&
        segments[1] === 'identities' &&
        segments[3] === 'confirm' &&
        segments.length === 4 &&
        method === 'POST'
      ) {
        const address = segments[2] ?? '';
        if (!confirmIdentity(address)) throw new SesError('NotFoundException', `Email address identity <${address}> does not exist.`);
        await durable();
        send(res, 200, { 'content-type': 'application/json' }, JSON.stringify({ identity: address, verified_for_sending: true }));
        return;
      }
      // Local viewer routes.
      if (segments[0] === '_local' && method === 'GET') {
        if (segments.length === 2 && segments[1] === 'messages') {
          let query: MessageQuery;
          try {
            query = parseMessageQuery(url.searchParams);
          } catch (err) {
            if (err instanceof MessageQueryError) throw new SesError('BadRequestException', err.message);
            throw err;
          }
          send(res, 200, { 'content-type': 'application/json' }, JSON.stringify({ messages: viewer.findMessages(query) }));
          return;
        }
        if (segments.length === 2 && segments[1] === 'identities') {
          send(res, 200, { 'content-type': 'application/json' }, JSON.stringify({ identities: viewer.listIdentities() }));
          return;
        }
        if (segments.length === 2 && segments[1] === 'tenants') {
          send(res, 200, { 'content-type': 'application/json' }, JSON.stringify({ tenants: viewer.listTenants() }));
          return;
        }
        if (segments.length === 2 && segments[1] === 'mailbox') {
          send(res, 200, { 'content-type': 'text/html; charset=utf-8' }, viewer.mailboxHtml());
          return;
        }
        if (segments.length === 4 && segments[1] === 'messages' && segments[3] === 'raw') {
          const raw = viewer.rawMessage(segments[2] ?? '');
          if (raw) {
            send(res, 200, { 'content-type': 'message/rfc822' }, raw);
            return;
          }
          throw new SesError('NotFoundException', `Message <${segments[2] ?? ''}> does not exist.`);
        }
      }

      // SESv2 REST-JSON.
      if (segments[0] === 'v2' && segments[1] === 'email') {
        const rest = segments.slice(2);
        const route =
          suppressionRoute({ suppression, feedback, account }, method, rest, url) ??
          identityRoute(identities, method, rest, url) ??
          tenantRoute(tenants, method, rest) ??
          accountRoute(account, method, rest) ??
          v2Route(service, method, rest, url);
        if (route) {
          const result = await route(req);
          // SendEmail awaited its own message; configuration sets, identities and tenants are awaited here.
          if (method !== 'GET') await durable();
          send(res, 200, { 'content-type': 'application/json', 'x-amzn-requestid': rid }, JSON.stringify(result.body));
          if (result.afterResponse) {
            const after = result.afterResponse;
            setImmediate(() => {
              try {
                after();
              } catch (err) {
                log(`after-response work failed: ${err instanceof Error ? err.message : String(err)}`);
              }
            });
          }
          return;
        }
      }

      // SES v1 Query API (form-encoded POST with Action=...): answer with its XML error shape.
      if (method === 'POST' && segments.length === 0) {
        const form = new URLSearchParams((await readBody(req)).toString('utf8'));
        const action = form.get('Action') ?? '(none)';
        send(res, 400, { 'content-type': 'text/xml', 'x-amzn-requestid': rid }, v1ErrorXml(action, rid));
        return;
      }

      throw new SesError('UnknownOperationException', `${method} ${url.pathname} is not an operation supported by the local SES emulator.`);
    } catch (err) {
      if (err instanceof BodyTooLarge) {
        res.setHeader('connection', 'close');
        const e = errorResponse(new SesError('MessageRejected', 'Request body too large (the message limit is 40 MB).'), rid);
        send(res, 413, e.headers, e.body);
        return;
      }
      if (!(err instanceof SesError))
        log(`internal error on ${method} ${req.url ?? ''}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      const e = errorResponse(err, rid);
      send(res, e.status, e.headers, e.body);
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`request handling failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) {
        res.writeHead(500);
        res.end();
      }
    });
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  return server;
}
