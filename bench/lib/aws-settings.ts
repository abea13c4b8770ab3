/**
 * The product settings the local cloud sets apart from AWS's defaults (docs/local-cloud/template.md, "Each
 * function's environment") that change what a bench measures: a bench's stack takes AWS's, so its reads per
 * email and its partition figures are what AWS would see. HOT_LOOKUPS_CACHE_MS: the send context's shared
 * items (key, account, domain claim, tenant) kept 1 s per process, as on AWS (the local cloud keeps nothing).
 */
import { DEFAULT_HOT_LOOKUPS_CACHE_MS } from '#shared/config/config';
import { DEFAULT_SETTINGS } from '#shared/config/settings';

/**
 * LOG_LEVEL: the template's default (`warn`), not the test stacks' `silent`, so that what the functions would
 * write to CloudWatch Logs is there to be metered (--cost).
 */
export const AWS_SETTINGS_ENV: Record<string, string> = {
  HOT_LOOKUPS_CACHE_MS: String(DEFAULT_HOT_LOOKUPS_CACHE_MS),
  LOG_LEVEL: DEFAULT_SETTINGS.LOG_LEVEL,
};
