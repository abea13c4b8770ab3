/**
 * The one place API and dashboard changes are recorded (docs/audit-log.md): installed on every API group
 * (createApi) and every dashboard function (functions/api/dashboard/frame.ts), it records, after the
 * handler ran, each successful change (a non-GET/HEAD/OPTIONS request answered 2xx; a dashboard form's
 * success redirect) made by an API key or a signed-in user: the action (the route's operationId, else
 * `<METHOD> <route pattern>`), the path's ids and a create's new id (../created-ids.ts), the actor, the account (and the key's tenant), the source
 * IP and user agent (API Gateway's request context), the status and the request id. Never a body, a
 * header value other than the user agent, or a secret. What is not audited: shared/domain/audit/audited-actions.ts.
 * A failed write is logged (shared/usecases/audit/record.ts), never the request's failure.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { cleanUserAgent, type AuditActor } from '#shared/domain/audit/audit-record';
import { isAuditedOperation, isChangeMethod, pathParams } from '#shared/domain/audit/audited-actions';
import type { AuditLogRepository } from '#shared/adapters/store/audit-log';
import type { Clock } from '#shared/ports/clock';
import { recordAudit } from '#shared/usecases/audit/record';
import type { ApiEnv } from '../env';

export interface AuditMiddlewareDeps {
  auditLog: Pick<AuditLogRepository, 'append' | 'apiKeyName'>;
  clock: Clock;
}

export interface AuditOptions {
  /** Whether the answer is a success; default: 2xx. */
  succeeded?: (c: Context<ApiEnv>) => boolean;
}

/** The pattern of the route that answered: the last matched route that is not a wildcard middleware. */
function routePattern(c: Context<ApiEnv>): string | null {
  const routes = matchedRoutes(c).filter(
    (route) => !route.path.endsWith('*') && (route.method === 'ALL' || route.method === c.req.method.toUpperCase()),
  );
  return routes.length ? routes[routes.length - 1]!.path : null;
}

/** The client's address as API Gateway saw it (never a header the client could set). */
export function sourceIpOf(c: Context<ApiEnv>): string | null {
  const context = c.env?.event?.requestContext;
  return context && 'http' in context && context.http.sourceIp ? context.http.sourceIp : null;
}

/** A dashboard form's success: 2xx, or a 303 that leaves no error flash (functions/api/dashboard/pages/forms.ts). */
export function dashboardSucceeded(c: Context<ApiEnv>): boolean {
  const status = c.res.status;
  if (status >= 200 && status < 300) return true;
  if (status !== 303) return false;
  const flash = /(?:^|,\s*)svc_flash=([A-Za-z0-9_-]+)/.exec(c.res.headers.get('set-cookie') ?? '');
  if (!flash) return true;
  try {
    return (JSON.parse(Buffer.from(flash[1]!, 'base64url').toString('utf8')) as { k?: unknown }).k !== 'error';
  } catch {
    return true;
  }
}

async function actorOf(c: Context<ApiEnv>, deps: AuditMiddlewareDeps): Promise<AuditActor | null> {
  const session = c.get('session');
  if (session) return { type: 'user', id: session.user.id, email: session.user.email, email_hash: null, role: session.user.role };
  const principal = c.get('principal');
  if (principal?.credential.kind !== 'api_key') return null;
  // The name authentication read with the key (one read less a change), else the key's listing item (an older key).
  const name =
    principal.credential.name ?? (await deps.auditLog.apiKeyName(principal.account.id, principal.credential.id).catch(() => null));
  return { type: 'api_key', id: principal.credential.id, name };
}

export function auditChanges(deps: AuditMiddlewareDeps, options: AuditOptions = {}): MiddlewareHandler<ApiEnv> {
  const succeeded = options.succeeded ?? ((c: Context<ApiEnv>) => c.res.status >= 200 && c.res.status < 300);
  return async (c, next) => {
    await next();
    if (!isChangeMethod(c.req.method) || !succeeded(c)) return;
    const pattern = routePattern(c);
    // Set by route() (../route.ts) for an operation's route; none for pages, forms and the compat doors.
    const operationId = c.get('operationId') ?? null;
    if (!isAuditedOperation(operationId, `${c.req.method.toUpperCase()} ${pattern ?? c.req.path}`)) return;
    const actor = await actorOf(c, deps);
    const principal = c.get('principal');
    if (!actor || !principal) return;
    await recordAudit(deps, {
      account_id: principal.account.id,
      tenant_id: principal.credential.tenant,
      action: operationId ?? `${c.req.method.toUpperCase()} ${pattern ?? c.req.path}`,
      // The path's ids, and what a create made (../created-ids.ts).
      resource_ids: { ...(pattern === null ? {} : pathParams(pattern, c.req.path)), ...c.get('createdIds') },
      actor,
      status: c.res.status,
      source_ip: sourceIpOf(c),
      user_agent: cleanUserAgent(c.req.header('user-agent')),
      request_id: c.get('requestId') ?? null,
    });
  };
}
