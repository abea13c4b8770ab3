/** Who may call an operation, as the document's security requirements. */
import { scopesCoveringAny } from '../../domain/api-keys/scopes';
import type { Operation } from './operation';

export function securityOf(operation: Operation): Record<string, string[]>[] {
  if (operation.auth === 'public') return [];
  if (operation.auth === 'session')
    return operation.method === 'get' ? [{ dashboardSession: [] }] : [{ dashboardSession: [], csrfToken: [] }];
  const scopes = operation.scopes ?? [];
  return scopes.length === 0 ? [{ apiKey: [] }] : scopesCoveringAny(scopes).map((scope) => ({ apiKey: [scope] }));
}
