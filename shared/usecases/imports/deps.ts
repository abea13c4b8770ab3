/**
 * What the import use cases need: the repositories and adapters of the resources they write (through the
 * same use cases as the API: createDomain, createWebhook, createTemplate), the provider source factory,
 * and the import settings (time budget per request, lease).
 */
import type { ProviderCredentials } from '../../domain/imports/source';
import type { ProviderSource } from '../../ports/provider-source';
import type { Clock } from '../../ports/clock';
import type { ImportRepository } from '../../adapters/store/imports';
import type { RateLimitRepository } from '../../adapters/store/rate-limits';
import type { CreateDomainDeps, DomainDeps } from '../domains/deps';
import type { SuppressionDeps } from '../suppressions/suppressions';
import type { TemplateDeps } from '../templates/templates';
import type { CreateWebhookDeps } from '../webhooks/webhooks';

export interface ImportSettings {
  /**
   * How long one request works before answering has_more (about 20 s on AWS: API Gateway's HTTP API
   * gives up at 30 s, so the spec's "about 40 seconds" cannot be kept; docs/imports.md).
   */
  budgetMs: number;
  /** Test knob: stop after this many saved stretches in one request (null: only the time budget). */
  maxStretchesPerRequest: number | null;
  /** How long a request's claim on an import lives (longer than the budget plus one stretch). */
  leaseMs: number;
  /** The API's public base URL (code_changes and agent_prompt name it). */
  apiBaseUrl: string;
  /** Suppression entries one import reads at most (spec, Limits: 500,000 per run); then it stops with an error. */
  maxSuppressions?: number;
}

export const MAX_SUPPRESSIONS_PER_IMPORT = 500_000;

export type ImportDeps = CreateDomainDeps &
  Pick<DomainDeps, 'dns'> &
  CreateWebhookDeps &
  TemplateDeps &
  SuppressionDeps & {
    imports: ImportRepository;
    rateLimits: RateLimitRepository;
    providerSource: (credentials: ProviderCredentials) => ProviderSource;
    importSettings: ImportSettings;
    clock: Clock;
  };
