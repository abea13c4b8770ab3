/**
 * EnableKeyRotation (TrentService.EnableKeyRotation, https://docs.aws.amazon.com/kms/latest/APIReference/API_EnableKeyRotation.html):
 * RotationPeriodInDays 90..2560 (365 when absent); a disabled key is DisabledException. Bookkeeping only
 * (../keys.ts): the next rotation date counts from now.
 */
import { KmsError } from '../errors';
import { optInt } from '../input';
import { DEFAULT_ROTATION_DAYS, managedKey } from '../keys';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

export function enableKeyRotation(state: KmsState, body: JsonObject): JsonObject {
  const key = managedKey(state, body);
  const period = optInt(body, 'RotationPeriodInDays', 90, 2560) ?? DEFAULT_ROTATION_DAYS;
  if (!key.Enabled) throw new KmsError('DisabledException', `${key.Arn} is disabled.`);
  key.RotationEnabled = true;
  key.RotationPeriodInDays = period;
  key.RotationEnabledAt = state.now();
  return {};
}
