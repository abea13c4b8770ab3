/**
 * GetKeyRotationStatus (TrentService.GetKeyRotationStatus, https://docs.aws.amazon.com/kms/latest/APIReference/API_GetKeyRotationStatus.html):
 * whether rotation is enabled and, when it is, its period and the next rotation date (a period after it was
 * enabled).
 */
import { DEFAULT_ROTATION_DAYS, managedKey } from '../keys';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

const DAY_MS = 24 * 60 * 60 * 1000;

export function getKeyRotationStatus(state: KmsState, body: JsonObject): JsonObject {
  const key = managedKey(state, body);
  if (!key.RotationEnabled) return { KeyRotationEnabled: false, KeyId: key.Arn };
  const period = key.RotationPeriodInDays ?? DEFAULT_ROTATION_DAYS;
  return {
    KeyRotationEnabled: true,
    KeyId: key.Arn,
    RotationPeriodInDays: period,
    NextRotationDate: ((key.RotationEnabledAt ?? key.CreationDate) + period * DAY_MS) / 1000,
  };
}
