/**
 * The send worker's pace to SES's quota (shared/usecases/delivery/pace.ts): the shared budget, SES's
 * MaxSendRate read from GetAccount (cached RATE_CACHE_MS per instance) or SES_MAX_SEND_RATE, and the
 * account's state for a SendingPausedException.
 */
import { createSesClient } from '../adapters/aws/ses-clients';
import { SesAccount } from '../adapters/aws/ses-account';
import type { Config } from '../config/config';
import { paceRateOf } from '../domain/ses/send-quota';
import { logWarn } from '../lib/log';
import type { SesSendBudget } from '../adapters/store/ses-send-budget';
import type { PaceDeps } from '../usecases/delivery/pace';

/** How long an instance keeps SES's MaxSendRate before reading it again (a raised quota applies within this). */
export const RATE_CACHE_MS = 60_000;

/** `read` at most once per `ttlMs`; a failed read answers null (not paced) until the next try. */
export function cachedRate(read: () => Promise<number | null>, now: () => number, ttlMs = RATE_CACHE_MS): () => Promise<number | null> {
  let cached: { value: number | null; until: number } | null = null;
  let pending: Promise<number | null> | null = null;
  return async () => {
    if (cached && cached.until > now()) return cached.value;
    pending ??= read()
      .catch((error: unknown) => {
        logWarn('SES GetAccount failed: sends are not paced until it answers', { error: String(error) });
        return null;
      })
      .then((value) => {
        cached = { value, until: now() + ttlMs };
        pending = null;
        return value;
      });
    return pending;
  };
}

export function buildSesPace(config: Config, core: { sesSendBudget: SesSendBudget }): { pace: PaceDeps; sesAccount: SesAccount } {
  const sesAccount = new SesAccount(createSesClient(config));
  const now = () => Date.now();
  const configured = config.sesMaxSendRate;
  return {
    sesAccount,
    pace: {
      budget: core.sesSendBudget,
      sendRate:
        configured !== null ? async () => configured : cachedRate(async () => paceRateOf((await sesAccount.get()).maxSendRate, null), now),
      accountSendingEnabled: async () => (await sesAccount.get()).sendingEnabled,
      accountHoldRetryMs: config.sesHoldRetryMs,
      now,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    },
  };
}
