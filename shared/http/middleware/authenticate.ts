import type { MiddlewareHandler } from 'hono';
import { authenticate } from '../../usecases/authenticate';
import type { AccountRepository } from '../../store/accounts';
import type { ApiKeyRepository } from '../../store/api-keys';
import type { ApiEnv } from '../env';

/** Bearer-key authentication: sets `principal` or throws 401. */
export function requireApiKey(deps: { apiKeys: ApiKeyRepository; accounts: AccountRepository }): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    c.set('principal', await authenticate(deps, c.req.header('authorization')));
    await next();
  };
}
