/**
 * The recovery bounds of the local cloud (shared/domain/reliability/bounds.ts): much shorter than
 * AWS's so that a local stack killed mid-burst is whole again within a minute of restarting. A value
 * already in the environment wins (the kill test shortens them further).
 */
import { RECOVERY_ENV } from '#shared/domain/reliability/bounds';

const LOCAL_SECONDS: Record<keyof typeof RECOVERY_ENV, number> = {
  queuedRedriveAfterMs: 30,
  sendGraceMs: 15,
  scheduledLateAfterMs: 15,
  webhookLateAfterMs: 30,
  noOutcomeDelayedAfterMs: 300,
  noOutcomeFinalAfterMs: 3600,
  providerRecheckMs: 2,
  providerRecheckLateMs: 30,
};

export function localRecoveryEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    (Object.entries(RECOVERY_ENV) as [keyof typeof RECOVERY_ENV, string][]).map(([bound, variable]) => [
      variable,
      env[variable] ?? String(LOCAL_SECONDS[bound]),
    ]),
  );
}
