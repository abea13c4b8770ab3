import type { MiddlewareHandler } from 'hono';
import { hasScope, type Scope } from '../../domain/api-keys/scopes';
import { InsufficientScopeError } from '../../domain/errors';
import type { ApiEnv } from '../env';

/** 403 insufficient_scope unless the key holds `full` or one of `anyOf`. */
export function requireScope(...anyOf: Scope[]): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const granted = c.get('principal').credential.scopes;
    if (!hasScope(granted, anyOf)) throw new InsufficientScopeError(anyOf.includes('full') ? anyOf : ['full', ...anyOf], granted);
    await next();
  };
}
