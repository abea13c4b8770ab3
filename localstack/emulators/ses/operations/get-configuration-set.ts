/**
 * GetConfigurationSet (GET /v2/email/configuration-sets/{ConfigurationSetName}): the set's options, with
 * SES's defaults for DeliveryOptions, ReputationOptions, SendingOptions and Tags when it has none.
 */
import { requireConfigSet } from '../config-sets';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export function getConfigurationSet(state: SesState, request: SesRequest): OperationResult {
  const cs = requireConfigSet(state.store, request.params[0]!);
  const o = cs.options;
  return {
    body: {
      ConfigurationSetName: cs.name,
      ...(o.TrackingOptions !== undefined ? { TrackingOptions: o.TrackingOptions } : {}),
      DeliveryOptions: o.DeliveryOptions ?? { TlsPolicy: 'OPTIONAL' },
      ReputationOptions: o.ReputationOptions ?? { ReputationMetricsEnabled: false },
      SendingOptions: o.SendingOptions ?? { SendingEnabled: true },
      Tags: o.Tags ?? [],
      ...(o.SuppressionOptions !== undefined ? { SuppressionOptions: o.SuppressionOptions } : {}),
      ...(o.VdmOptions !== undefined ? { VdmOptions: o.VdmOptions } : {}),
      ...(o.ArchivingOptions !== undefined ? { ArchivingOptions: o.ArchivingOptions } : {}),
    },
  };
}
