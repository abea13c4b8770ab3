/**
 * Verifying a sending domain against real DNS, record by record, including a DKIM signing probe, and
 * registering it with the mail provider once verified.
 */
import { signDkim } from '../../lib/dkim/sign';
import { verifySignatures } from '../../lib/dkim/verify';
import { dkimKeyContext, type DnsRecord, type Domain } from '../../domain/domains/domain';
import {
  domainStatusAfterCheck,
  evaluateDkim,
  evaluateDmarc,
  evaluateMx,
  evaluateOwnership,
  evaluateReturnPath,
  evaluateSpf,
} from '../../domain/domains/evaluate';
import { providerVerification, statusWithProvider } from '../../domain/domains/provider-verification';
import { RETURN_PATH_LABEL } from '../../domain/domains/records';
import { UpstreamError } from '../../domain/errors';
import { logError } from '../../lib/log';
import type { ProviderDomainState } from '../../domain/domains/provider-verification';
import type { StoredDomain } from '../../adapters/store/domains/stored-domain';
import type { Principal } from '../access/principal';
import { linkTenantDomain } from '../ses-tenants/ses-tenant-links';
import { CHANGE_ATTEMPTS, changedMeanwhile, owned, type DomainDeps } from './deps';
import { checkHealthWhenVerified } from './health-on-verify';

/**
 * The probe: a small plain-text message from the domain (ASCII headers, 7bit body), built here rather than
 * with the MIME composer (shared/domain/mime/compose.ts) since nothing but the signature check ever reads it.
 */
export function probeMessage(domain: Pick<Domain, 'id' | 'name'>, now: Date): Buffer {
  return Buffer.from(
    [
      `From: dkim-check@${domain.name}`,
      `To: dkim-check@${domain.name}`,
      'Subject: DKIM signing check',
      `Message-ID: <dkim-check-${domain.id}@${domain.name}>`,
      `Date: ${now.toUTCString().replace('GMT', '+0000')}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 7bit',
      '',
      `Signing check for ${domain.name} at ${now.toISOString()}`,
      '',
    ].join('\r\n'),
    'latin1',
  );
}

/** Signs a probe message with the domain's private key and verifies it against the key found in DNS. */
async function signingProbe(deps: DomainDeps, stored: StoredDomain): Promise<{ ok: true } | { ok: false; reason: string }> {
  const { domain } = stored;
  try {
    const privateKeyPem = await deps.secretBox.open(stored.sealedPrivateKey, dkimKeyContext(domain.id));
    const signed = await signDkim({
      raw: probeMessage(domain, deps.clock.now()),
      domain: domain.name,
      selector: domain.dkim_selector,
      privateKeyPem,
    });
    const results = await verifySignatures(signed, (name) => deps.dns.txtChunks(name), deps.clock.now());
    const ours = results.find((r) => r.domain?.toLowerCase() === domain.name && r.selector === domain.dkim_selector);
    if (ours?.status === 'pass') return { ok: true };
    return { ok: false, reason: ours ? `${ours.status}${ours.reason ? `: ${ours.reason}` : ''}` : 'no signature result' };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

/**
 * POST /domains/{id} {"action": "verify"}. The check is recorded only while receiving and the DMARC report
 * address are as they were checked: when a PATCH changed either meanwhile (the MX record came or went, the
 * DMARC record's rua= changed), it runs again.
 */
export async function verifyDomain(deps: DomainDeps, principal: Principal, domainId: string): Promise<Domain> {
  for (let attempt = 1; ; attempt++) {
    const stored = await owned(deps, principal, domainId);
    const checked = await checkDomain(deps, principal, stored);
    if (checked) return checked;
    // Changed meanwhile: checked again from the domain as it is now (gone: 404 from `owned`).
    if (attempt >= CHANGE_ATTEMPTS) throw changedMeanwhile(domainId);
  }
}

/** Each of the domain's records looked up and evaluated. */
function evaluateRecords(deps: DomainDeps, domain: Domain): Promise<DnsRecord[]> {
  return Promise.all(
    domain.records.map(async (record) => {
      switch (record.purpose) {
        case 'ownership':
          return evaluateOwnership(record, await deps.dns.txt(record.name));
        case 'dkim':
          return evaluateDkim(record, await deps.dns.txt(record.name), domain.dkim_public_key);
        case 'return_path':
          return evaluateReturnPath(record, await deps.dns.cname(record.name));
        case 'spf':
          return evaluateSpf(record, await deps.dns.txt(record.name), deps.dnsSettings.spfInclude);
        case 'dmarc':
          return evaluateDmarc(record, await deps.dns.txt(record.name));
        case 'inbound_mx':
          return evaluateMx(record, await deps.dns.mx(record.name));
      }
    }),
  );
}

/** The published key matches: confirm the service can actually sign with it (the DKIM record turns invalid if not). */
async function confirmSigning(deps: DomainDeps, stored: StoredDomain, records: DnsRecord[]): Promise<void> {
  const dkim = records.find((record) => record.purpose === 'dkim');
  if (dkim && dkim.status === 'verified') {
    const probe = await signingProbe(deps, stored);
    if (!probe.ok) {
      dkim.status = 'invalid';
      dkim.message = `The key published at ${dkim.name} matches, but a message signed with the domain's key did not verify against DNS (${probe.reason}). Check that the record is published exactly as given.`;
    }
  }
}

/** What a check records besides the status: the records, and the settings they were read with. */
interface CheckedRecords {
  records: DnsRecord[];
  inbound_enabled: boolean;
  dmarc_reports_address: string | null;
}

/** One verification of the domain as read; null when it could not be recorded (the domain changed or went). */
async function checkDomain(deps: DomainDeps, principal: Principal, stored: StoredDomain): Promise<Domain | null> {
  const { domain } = stored;
  const records = await evaluateRecords(deps, domain);
  await confirmSigning(deps, stored, records);
  const checked: CheckedRecords = {
    records,
    // Stored before inbound existed: no flag, off.
    inbound_enabled: Boolean(domain.inbound_enabled),
    // The DMARC record among the records names this report address: recorded only while it is still the domain's.
    dmarc_reports_address: domain.dmarc_reports_address ?? null,
  };
  const status = domainStatusAfterCheck(domain.status, records);
  // No half state: the domain is verified in our store only once the provider can send from it.
  if (status === 'verified') return recordVerified(deps, principal, stored, checked);
  return deps.domains.recordCheck(principal.account.id, domain.id, {
    status,
    records,
    at: deps.clock.now().toISOString(),
    inbound_enabled: checked.inbound_enabled,
    dmarc_reports_address: checked.dmarc_reports_address,
  });
}

/**
 * Records correct: registered with the provider, then recorded as verified once the provider can send from it
 * (until then the status it had, `provider` says why). A failed registration keeps the status and answers 502.
 */
async function recordVerified(
  deps: DomainDeps,
  principal: Principal,
  stored: StoredDomain,
  checked: CheckedRecords,
): Promise<Domain | null> {
  const { domain } = stored;
  const { records, inbound_enabled, dmarc_reports_address } = checked;
  const registered = await registerWithProvider(deps, stored);
  const at = deps.clock.now().toISOString();
  if (!registered.ok) {
    const kept = await deps.domains.recordCheck(principal.account.id, domain.id, {
      status: domain.status,
      records,
      at,
      inbound_enabled,
      dmarc_reports_address,
    });
    if (!kept) return null;
    throw new UpstreamError(
      `The DNS records of ${domain.name} are correct, but the mail provider could not register the domain, so its status stays ${kept.status}. Retry verify in a moment.`,
      {
        details: { domain_id: domain.id, status: kept.status },
        hint: 'Call this endpoint again with {"action": "verify"}; the records need no change.',
        cause: registered.error,
      },
    );
  }
  const provider = providerVerification(registered.state, at);
  const recorded = await deps.domains.recordCheck(principal.account.id, domain.id, {
    status: statusWithProvider(domain.status, provider),
    records,
    at,
    inbound_enabled,
    provider,
    dmarc_reports_address,
  });
  await checkHealthWhenVerified(deps, domain, recorded);
  return recorded;
}

/**
 * Makes the provider (SES) send from the domain: our DKIM key and selector, MAIL FROM `rp.<domain>`; a
 * tenant's domain is then associated with the tenant's SES tenant (the identity exists now).
 */
async function registerWithProvider(
  deps: DomainDeps,
  stored: StoredDomain,
): Promise<{ ok: true; state: ProviderDomainState } | { ok: false; error: unknown }> {
  const { domain } = stored;
  // The return-path record's name: the customer's CNAME to RETURN_PATH_HOST, which carries SES's MX and SPF.
  const mailFromDomain = `${RETURN_PATH_LABEL}.${domain.name}`;
  const privateKeyPem = await deps.secretBox.open(stored.sealedPrivateKey, dkimKeyContext(domain.id));
  try {
    const state = await deps.mailer.registerDomain({ domain: domain.name, selector: domain.dkim_selector, privateKeyPem, mailFromDomain });
    if (domain.tenant_id) await linkTenantDomain(deps.sesTenants, domain.tenant_id, domain.name);
    return { ok: true, state };
  } catch (error) {
    logError('could not register the verified domain with the mail provider', error, { domain_id: domain.id, domain: domain.name });
    return { ok: false, error };
  }
}
