/**
 * Bearer-key authentication for the HTTP door: parses `Authorization: Bearer svc_...` (401 when missing
 * or malformed) and resolves the principal through the shared secret check. Routes listed in `deferFor`
 * (POST /emails) get only `apiKeyHash`: the send core reads the key with the send's other items in one
 * round trip, with the same checks.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { UnauthorizedError } from '#shared/domain/errors';
import { apiKeySecretHash, authenticateKeyHash, type AuthenticateDeps } from '#shared/usecases/access/authenticate';
import type { ApiEnv } from '../env';

function bearerSecret(authorization: string | undefined): string {
  if (!authorization) throw new UnauthorizedError('Missing API key. Pass it as "Authorization: Bearer svc_...".');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw new UnauthorizedError('Invalid API key. Pass it as "Authorization: Bearer svc_...".');
  return match[1]!;
}

export interface AuthenticationOptions {
  /** Requests whose principal is resolved later, by the use case, in its own first read. */
  deferFor?: (c: Context<ApiEnv>) => boolean;
}

export function requireApiKey(deps: AuthenticateDeps, options: AuthenticationOptions = {}): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const hash = apiKeySecretHash(bearerSecret(c.req.header('authorization')));
    c.set('apiKeyHash', hash);
    if (!options.deferFor?.(c)) c.set('principal', await authenticateKeyHash(deps, hash));
    await next();
  };
}
