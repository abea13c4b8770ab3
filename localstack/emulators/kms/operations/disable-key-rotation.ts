/** DisableKeyRotation (TrentService.DisableKeyRotation, https://docs.aws.amazon.com/kms/latest/APIReference/API_DisableKeyRotation.html): a disabled key is DisabledException. */
import { KmsError } from '../errors';
import { managedKey } from '../keys';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

export function disableKeyRotation(state: KmsState, body: JsonObject): JsonObject {
  const key = managedKey(state, body);
  if (!key.Enabled) throw new KmsError('DisabledException', `${key.Arn} is disabled.`);
  key.RotationEnabled = false;
  delete key.RotationPeriodInDays;
  delete key.RotationEnabledAt;
  return {};
}
