/** DeleteSuppressedDestination (DELETE /v2/email/suppression/addresses/{EmailAddress}?TenantName): from the tenant's list when one is named. */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export function deleteSuppressedDestination(state: SesState, request: SesRequest): OperationResult {
  const address = request.params[0]!;
  const { suppression } = state;
  const tenant = suppression.optTenant(request.query.get('TenantName'));
  suppression.requireEntry(tenant, address);
  suppression.replace(
    tenant,
    suppression.entries(tenant).filter((e) => e.address.toLowerCase() !== address.toLowerCase()),
  );
  return { body: {} };
}
