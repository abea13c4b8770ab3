/**
 * PATCH /domains/{id} `{"dmarc_reports": {"enabled", "address"?}}`: the domain's DMARC report address
 * (shared/domain/domains/dmarc-reports.ts). The address must be one our MX accepts for this account:
 * on the receiving subdomain (`inbound.<name>`) of a verified domain of the account with receiving on,
 * which the caller may see (a key limited to a tenant: one of its domains). Without `address`, the
 * domain's own `dmarc@inbound.<domain>`. The address, the suggested DMARC record (`rua=`) and the
 * address's pointer item change in one conditional write, re-planned when the domain changed meanwhile.
 */
import { domainOwner, type Domain } from '../../domain/domains/domain';
import { defaultReportAddress, type DmarcReportsInput } from '../../domain/domains/dmarc-reports';
import { dmarcValue } from '../../domain/domains/records';
import { ConflictError, ValidationError } from '../../domain/errors';
import { parentOfReceivingDomain, splitAddress } from '../../domain/inbound/address';
import type { Clock } from '../../ports/clock';
import type { DomainCrud } from '../../adapters/store/domains/crud';
import type { DomainSettings } from '../../adapters/store/domains/settings';
import type { Principal } from '../access/principal';
import { assertVisible, isVisible, limitedTenantOf } from '../access/visibility';

export interface DmarcReportSettingsDeps {
  domains: Pick<DomainCrud, 'get' | 'findOwned'> & Pick<DomainSettings, 'changeDmarcReports'>;
  clock: Clock;
}

/** Attempts when the domain keeps changing under the request (each re-reads it). */
const ATTEMPTS = 5;

const refuse = (message: string) =>
  new ValidationError(`dmarc_reports.address ${message}`, { details: { fields: [{ field: 'dmarc_reports.address', message }] } });

/** The address to store, checked; throws 400 naming what is wrong. */
async function reportAddressFor(
  deps: DmarcReportSettingsDeps,
  principal: Principal,
  domain: Domain,
  address: string | undefined,
): Promise<string> {
  if (address === undefined && !domain.inbound_subdomain) {
    throw refuse(
      `is required: ${domain.name} does not receive mail (inbound_enabled is false); turn receiving on, or give an address on the receiving subdomain of another domain of the account`,
    );
  }
  const chosen = address ?? defaultReportAddress(domain.inbound_subdomain!);
  const reportDomain = splitAddress(chosen)?.domain ?? '';
  const parent = parentOfReceivingDomain(reportDomain);
  if (!parent) throw refuse(`must be on a receiving subdomain (inbound.<domain>) of a domain of the account, not ${reportDomain}`);
  const receiving = parent === domain.name ? domain : (await deps.domains.findOwned(principal.account.id, parent))?.domain;
  if (!receiving || !isVisible(principal, domainOwner(receiving)))
    throw refuse(`is on ${reportDomain}, but ${parent} is not a domain of this account`);
  if (!receiving.inbound_enabled || receiving.inbound_subdomain !== reportDomain)
    throw refuse(`is on ${reportDomain}, but ${parent} does not receive mail (turn inbound_enabled on for it first)`);
  if (receiving.status !== 'verified')
    throw refuse(`is on ${reportDomain}, but ${parent} is not verified yet: our MX receives its mail once it is`);
  return chosen;
}

export async function changeDmarcReports(
  deps: DmarcReportSettingsDeps,
  principal: Principal,
  domainId: string,
  input: DmarcReportsInput,
): Promise<Domain> {
  const owner = { accountId: principal.account.id, tenantId: limitedTenantOf(principal) };
  for (let attempt = 1; ; attempt++) {
    const stored = await deps.domains.get(domainId);
    const domain = assertVisible(principal, stored && domainOwner(stored.domain), 'Domain', domainId) && stored!.domain;
    const to = input.enabled ? await reportAddressFor(deps, principal, domain, input.address) : null;
    const recordIndex = domain.records.findIndex((record) => record.purpose === 'dmarc');
    const change = {
      from: domain.dmarc_reports_address ?? null,
      to,
      recordIndex: recordIndex >= 0 ? recordIndex : null,
      recordValue: dmarcValue(domain.name, to),
    };
    const updated = await deps.domains.changeDmarcReports(owner, domain, change, deps.clock.now().toISOString());
    if (updated) return updated;
    if (attempt >= ATTEMPTS) {
      throw new ConflictError(`Domain ${domainId} kept changing while this request ran; dmarc_reports was not changed.`, 'conflict', {
        details: { domain_id: domainId },
        hint: 'Send the request again.',
      });
    }
  }
}
