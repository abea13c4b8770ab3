/**
 * In-memory ports of hosted MTA-STS policies: the store with the table's version conditions and the accounts'
 * places (shared/adapters/store/mta-sts-hosting.ts), ACM as its API behaves (validation record, issue once the record
 * is published, delete refused while in use) and API Gateway's custom domain names.
 */
import type { Lookup } from '#shared/domain/domains/evaluate';
import type { StoredHosting } from '#shared/domain/domains/mta-sts/hosting';
import type { HostedApi } from '#shared/domain/domains/hosting/host-hosting';
import { HostingQuotaError, type HostCertificate, type HostCertificates, type HostDomainNames } from '#shared/ports/hosting';
import type { MtaStsHostingRepository, StoredHostingState } from '#shared/adapters/store/mta-sts-hosting';

export class InMemoryHosting implements Pick<MtaStsHostingRepository, 'get' | 'create' | 'save' | 'remove' | 'pastDue'> {
  readonly items = new Map<string, { hosting: StoredHosting; due: Date | null }>();
  /** Places taken per account (the table's counter): a creation takes one below the limit, a removal gives it back. */
  readonly places = new Map<string, number>();
  conflicts = 0;
  /** Every hosting saved, in order (what a reader could have seen). */
  readonly saved: StoredHosting[] = [];
  /** Runs before the next save's condition (a concurrent write first). */
  beforeSave: (() => void) | null = null;

  async get(policyDomain: string): Promise<StoredHostingState | null> {
    const item = this.items.get(policyDomain);
    return item ? { hosting: structuredClone(item.hosting), nextStepAt: item.due?.toISOString() ?? null } : null;
  }

  async create(hosting: StoredHosting, nextStepAt: Date, limit: number): Promise<'saved' | 'conflict' | 'limit'> {
    const hook = this.beforeSave;
    this.beforeSave = null;
    hook?.();
    if (this.items.has(hosting.policy_domain)) {
      this.conflicts++;
      return 'conflict';
    }
    const taken = this.places.get(hosting.account_id) ?? 0;
    if (taken >= limit) return 'limit';
    this.places.set(hosting.account_id, taken + 1);
    this.items.set(hosting.policy_domain, { hosting: structuredClone(hosting), due: nextStepAt });
    this.saved.push(structuredClone(hosting));
    return 'saved';
  }

  async save(hosting: StoredHosting, nextStepAt: Date | null): Promise<'saved' | 'conflict'> {
    if (hosting.version === 1) throw new Error('a new hosting is stored with create');
    const hook = this.beforeSave;
    this.beforeSave = null;
    hook?.();
    const current = this.items.get(hosting.policy_domain)?.hosting.version ?? 0;
    if (current !== hosting.version - 1) {
      this.conflicts++;
      return 'conflict';
    }
    this.items.set(hosting.policy_domain, { hosting: structuredClone(hosting), due: nextStepAt });
    this.saved.push(structuredClone(hosting));
    return 'saved';
  }

  async remove(hosting: Pick<StoredHosting, 'policy_domain' | 'version' | 'account_id' | 'plan_slot'>): Promise<'deleted' | 'conflict'> {
    if (this.items.get(hosting.policy_domain)?.hosting.version !== hosting.version) return 'conflict';
    this.items.delete(hosting.policy_domain);
    if (hosting.plan_slot) this.places.set(hosting.account_id, (this.places.get(hosting.account_id) ?? 0) - 1);
    return 'deleted';
  }

  async pastDue(now: Date, limit: number): Promise<string[]> {
    return [...this.items.entries()]
      .filter(([, item]) => item.due !== null && item.due.getTime() <= now.getTime())
      .sort(([, a], [, b]) => a.due!.getTime() - b.due!.getTime())
      .slice(0, limit)
      .map(([policyDomain]) => policyDomain);
  }
}

type FakeCertificate = {
  host: string;
  token: string;
  status: HostCertificate['status'];
  failure: string | null;
  inUse: boolean;
  describes: number;
};

export class FakeCertificates implements HostCertificates {
  readonly certificates = new Map<string, FakeCertificate>();
  requests = 0;
  private made = 0;
  /** The published validation records (a DNS zone of the owner's). */
  readonly published = new Set<string>();
  quotaReached = false;
  /** Describes before ACM shows the validation record (it takes seconds in AWS). */
  recordAfterDescribes = 0;

  validationName(host: string) {
    return `_abc.${host}`;
  }

  async request(host: string, token: string): Promise<{ arn: string }> {
    this.requests++;
    if (this.quotaReached) throw new HostingQuotaError('ACM certificates quota reached');
    const existing = [...this.certificates.entries()].find(([, c]) => c.token === token && c.host === host);
    if (existing) return { arn: existing[0] };
    const arn = `arn:aws:acm:us-east-1:000000000000:certificate/${++this.made}`;
    this.certificates.set(arn, { host, token, status: 'pending', failure: null, inUse: false, describes: 0 });
    return { arn };
  }

  async describe(arn: string): Promise<HostCertificate | null> {
    const certificate = this.certificates.get(arn);
    if (!certificate) return null;
    certificate.describes++;
    if (certificate.status === 'pending' && this.published.has(this.validationName(certificate.host))) certificate.status = 'issued';
    const shown = certificate.describes > this.recordAfterDescribes;
    return {
      status: certificate.status,
      failure: certificate.failure,
      validationRecord: shown ? { name: this.validationName(certificate.host), value: '_xyz.acm-validations.aws' } : null,
    };
  }

  async remove(arn: string): Promise<'deleted' | 'in_use'> {
    const certificate = this.certificates.get(arn);
    if (certificate?.inUse) return 'in_use';
    this.certificates.delete(arn);
    return 'deleted';
  }

  fail(arn: string, failure: string) {
    this.certificates.get(arn)!.status = 'failed';
    this.certificates.get(arn)!.failure = failure;
  }
}

export class FakeDomainNames implements HostDomainNames {
  readonly names = new Map<string, { certificateArn: string; target: string; api: HostedApi }>();
  ensures = 0;
  quotaReached = false;
  /** Each domain name made gets a target of its own, as API Gateway's. */
  private made = 0;
  /** A deleted name keeps its certificate in use until this many removal attempts of the certificate (API Gateway lets go later). */
  constructor(private readonly certificates: FakeCertificates) {}

  async ensure(host: string, certificateArn: string, api: HostedApi = 'mta-sts'): Promise<{ target: string }> {
    this.ensures++;
    const existing = this.names.get(host);
    if (existing) return { target: existing.target };
    if (this.quotaReached) throw new HostingQuotaError('Regional custom domain names quota reached');
    const target = `d-${++this.made}abcdefgh.execute-api.us-east-1.amazonaws.com`;
    this.names.set(host, { certificateArn, target, api });
    this.certificates.certificates.get(certificateArn)!.inUse = true;
    return { target };
  }

  async remove(host: string): Promise<void> {
    this.names.delete(host);
  }
}

/** A DNS zone: names -> values, per type. */
export function fakeZone() {
  const cname = new Map<string, string[]>();
  const txt = new Map<string, string[]>();
  const lookup =
    (map: Map<string, string[]>) =>
    async (name: string): Promise<Lookup> => {
      const values = map.get(name);
      return values?.length ? { kind: 'found', values } : { kind: 'none' };
    };
  return { cname, txt, dns: { cname: lookup(cname), txt: lookup(txt) } };
}
