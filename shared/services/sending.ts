/**
 * Sending (docs/api.md, "Send an email"): what a send is decided on, read in one round trip by the
 * process's send-context loader (it owns the send path's caches: docs/reference/caches.md).
 */
import { SendContextReader } from '../adapters/store/send-context';
import { SendContextCache } from '../adapters/store/send-context-cache';
import { SendContextLoader } from '../usecases/send/send-context-loader';
import { buildAccess, type AccessServices } from './access';
import { buildDomains, type DomainServices } from './domains';
import { buildEmails } from './emails';
import type { Platform } from './platform';
import { buildTemplates, type TemplateServices } from './templates';
import { buildTenants, type TenantServices } from './tenants';
import { buildUsage } from './usage';
import type { EmailScheduler } from '../ports/scheduling';

/** What sending reads that other capabilities own (built once per process by their modules). */
export type SendingNeeds = Pick<AccessServices, 'apiKeys' | 'keyAccounts'> &
  Pick<TenantServices, 'tenants'> &
  Pick<DomainServices, 'domains'> &
  Pick<TemplateServices, 'publishedTemplates'>;

export function buildSending({ config, table }: Pick<Platform, 'config' | 'table'>, needs: SendingNeeds) {
  const sendContext = new SendContextReader(table, new SendContextCache(config.hotLookupsCacheMs));
  return {
    sendContext,
    sendContextLoader: new SendContextLoader({
      sendContext,
      apiKeys: needs.apiKeys,
      keyAccounts: needs.keyAccounts,
      tenants: needs.tenants,
      domains: needs.domains,
      publishedTemplates: needs.publishedTemplates,
      sandboxDomain: config.sandboxDomain,
    }),
  };
}

export type SendingServices = ReturnType<typeof buildSending>;

/** The table's capabilities every send door composes: who calls, the emails, the plan counters, sending and what it reads. */
export function buildSendingStack(platform: Platform) {
  const access = buildAccess(platform);
  const tenants = buildTenants(platform);
  const domains = buildDomains(platform);
  const templates = buildTemplates(platform);
  return {
    ...access,
    ...tenants,
    ...domains,
    ...templates,
    ...buildEmails(platform),
    ...buildUsage(platform),
    ...buildSending(platform, { ...access, ...tenants, ...domains, ...templates }),
  };
}

export type SendingStackServices = ReturnType<typeof buildSendingStack>;

/**
 * The send core's scheduler for a door whose sends are never scheduled (the inbound worker's forwards): no
 * Scheduler client and no grant; a schedule asked of it is a bug, and throws.
 */
export const NO_EMAIL_SCHEDULES = {
  scheduler: {
    upsert: async (emailId: string) => {
      throw new Error(`this process never schedules a send (asked for ${emailId})`);
    },
    remove: async () => undefined,
  },
} satisfies { scheduler: EmailScheduler };
