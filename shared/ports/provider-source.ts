/**
 * Port: the provider an import reads from (SendGrid, Postmark, Mailgun: shared/adapters/providers/), and why
 * reading it stopped (ProviderError). The records it yields: shared/domain/imports/source.ts.
 */
import type {
  ProviderName,
  SourceDomain,
  SourcePage,
  SourceSuppression,
  SourceTemplate,
  SourceTemplateSummary,
  SourceWebhook,
  SuppressionListRef,
} from '../domain/imports/source';

/** Why reading the provider stopped. Adapters throw these; anything else is a bug. */
export type ProviderFailure =
  | { kind: 'auth'; message: string } // the key was rejected (401, 403 on the first call)
  | { kind: 'unavailable'; message: string } // network error, timeout, 5xx
  | { kind: 'rate_limited'; retryAfterSeconds: number; message: string }
  | { kind: 'not_permitted'; message: string }; // this resource cannot be read with these credentials (others may)

export class ProviderError extends Error {
  constructor(readonly failure: ProviderFailure) {
    super(failure.message);
    this.name = 'ProviderError';
  }
}

/**
 * The port. Every method reads one page (one provider call, or a few for a page's details) so the
 * import can stop between any two calls and resume from the returned token. Tokens are strings the
 * adapter alone understands (opaque to the caller, at most 2 KB), stable across calls with the same
 * credentials.
 */
export interface ProviderSource {
  readonly provider: ProviderName;
  /** Cheapest authenticated call: throws ProviderError auth when the key is rejected. */
  checkAccess(): Promise<void>;
  listDomains(page: string | null): Promise<SourcePage<SourceDomain>>;
  listWebhooks(page: string | null): Promise<SourcePage<SourceWebhook>>;
  listTemplates(page: string | null): Promise<SourcePage<SourceTemplateSummary>>;
  getTemplate(sourceId: string): Promise<SourceTemplate>;
  /** The suppression lists to walk, in precedence order (see SuppressionListRef). */
  suppressionLists(): Promise<SuppressionListRef[]>;
  listSuppressions(list: string, page: string | null): Promise<SourcePage<SourceSuppression>>;
}
