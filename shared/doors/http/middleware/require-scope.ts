import type { MiddlewareHandler } from 'hono';
import { hasScope, scopesCoveringAny, type Scope } from '#shared/domain/api-keys/scopes';
import { InsufficientScopeError } from '#shared/domain/errors';
import type { ApiEnv } from '../env';

/**
 * 403 insufficient_scope unless the key holds a scope covering one of `anyOf` (`full`, `mail:admin`: ../../../domain/api-keys/scopes.ts). The middleware carries `scopes`
 * so the OpenAPI document's scopes can be checked against the routes (test/unit/openapi/routes.test.ts).
 */
export function requireScope(...anyOf: Scope[]): MiddlewareHandler<ApiEnv> & { readonly scopes: readonly Scope[] } {
  const middleware: MiddlewareHandler<ApiEnv> = async (c, next) => {
    const granted = c.get('principal').credential.scopes;
    if (!hasScope(granted, anyOf)) throw new InsufficientScopeError(scopesCoveringAny(anyOf), granted);
    await next();
  };
  return Object.assign(middleware, { scopes: anyOf });
}
