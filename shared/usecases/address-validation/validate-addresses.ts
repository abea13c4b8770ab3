/**
 * Address validation (POST /validations and /validations/batch; docs/deliverability.md, "Address
 * validation"): for each address its checks (syntax, the domain's mail hosts, disposable domain, role
 * address, this account's suppression lists, a typo suggestion), then the verdict and score of
 * shared/domain/address-validation/verdict.ts.
 *
 * The lists read are those a send of the caller would be refused by: the account's, and the tenant's when
 * the request names one or the key is limited to one (the one tenant rule: 403/404 as everywhere). Each
 * address counts against the plan's hourly allowance (a batch all at once, before any lookup: 429
 * rate_limited). Distinct domains are looked up once per request, a few at a time.
 */
import { normaliseEmail } from '../../domain/mail/address';
import { isRoleAddress } from '../../domain/address-validation/role-addresses';
import type { AddressValidation } from '../../domain/address-validation/schemas';
import { parseAddress, type ParsedAddress } from '../../domain/address-validation/syntax';
import { suggestDomain } from '../../domain/address-validation/typos';
import { assess, type AddressChecks, type DomainCheck, type SuppressedFor } from '../../domain/address-validation/verdict';
import { mapBounded } from '../../lib/concurrency';
import type { Clock } from '../../ports/clock';
import type { DisposableDomains } from '../../ports/disposable-domains';
import type { RateLimitRepository } from '../../adapters/store/rate-limits';
import type { SuppressionRepository } from '../../adapters/store/suppressions';
import type { Principal } from '../access/principal';
import { resolveTenant, type TenantScopeDeps } from '../access/tenant-scope';
import { tenantRefOf } from '../access/visibility';
import type { MailDomains } from './mail-domains';
import { countValidatedAddresses } from './validation-allowance';

/** Domains looked up at once by one request. */
const DOMAIN_CONCURRENCY = 8;

export interface ValidationDeps {
  mailDomains: Pick<MailDomains, 'check'>;
  disposableDomains: DisposableDomains;
  suppressions: Pick<SuppressionRepository, 'suppressedFor'>;
  tenants: TenantScopeDeps['tenants'];
  rateLimits: Pick<RateLimitRepository, 'hit'>;
  clock: Clock;
}

export interface ValidateInput {
  emails: readonly string[];
  tenant?: string;
}

const NOT_CHECKED: DomainCheck = { result: 'not_checked', hosts: [] };

function checksOf(
  parsed: ParsedAddress,
  domain: DomainCheck,
  disposable: DisposableDomains,
  suppressed: SuppressedFor | undefined,
): AddressChecks {
  if (!parsed.valid) {
    return {
      syntax: { valid: false, problem: parsed.problem, smtputf8: false },
      domain: NOT_CHECKED,
      disposable: false,
      role: false,
      suppressed: { suppressed: false, reason: null },
      suggestion: null,
    };
  }
  const suggested = suggestDomain(parsed.unicodeDomain);
  return {
    syntax: { valid: true, problem: null, smtputf8: parsed.smtputf8 },
    domain,
    disposable: disposable.isDisposable(parsed.domain),
    role: isRoleAddress(parsed.local),
    suppressed: { suppressed: suppressed !== undefined, reason: suppressed ?? null },
    suggestion: suggested === null ? null : `${parsed.local}@${suggested}`,
  };
}

/** Each of `input.emails` validated, in the order given. */
export async function validateAddresses(deps: ValidationDeps, principal: Principal, input: ValidateInput): Promise<AddressValidation[]> {
  const tenant = await resolveTenant(deps, principal, tenantRefOf(principal, input.tenant));
  await countValidatedAddresses(deps, principal, input.emails.length);
  const parsed = input.emails.map(parseAddress);
  const valid = parsed.flatMap((address) => (address.valid ? [address] : []));
  const domains = [...new Set(valid.map((address) => address.domain))];
  const [checked, suppressed] = await Promise.all([
    mapBounded(domains, DOMAIN_CONCURRENCY, (domain) => deps.mailDomains.check(domain)),
    deps.suppressions.suppressedFor(
      principal.account.id,
      tenant?.id ?? null,
      valid.map((address) => `${address.local}@${address.domain}`),
    ),
  ]);
  const byDomain = new Map(domains.map((domain, i) => [domain, checked[i]!]));
  return parsed.map((address, i) => {
    const domain = address.valid ? byDomain.get(address.domain)! : NOT_CHECKED;
    const reason = address.valid ? suppressed.get(normaliseEmail(`${address.local}@${address.domain}`)) : undefined;
    const checks = checksOf(address, domain, deps.disposableDomains, reason);
    return { email: input.emails[i]!, checks, assessment: assess(checks) };
  });
}
