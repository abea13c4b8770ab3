/** An in-memory SesTenants (the SES v2 tenants port) for use-case unit tests: state, a call log, and failures on demand. */
import type { SesTenantPage, SesTenantResource, SesTenants } from '#shared/ports/ses-tenants';

const key = (resource: SesTenantResource): string =>
  resource.kind === 'identity'
    ? `identity/${resource.name}`
    : resource.tlsRequired
      ? 'configuration-set-tls-required'
      : 'configuration-set';

export class FakeSesTenants implements SesTenants {
  /** tenant id -> associated resources (`identity/<name>`, `configuration-set`, `configuration-set-tls-required`). */
  readonly tenants = new Map<string, Set<string>>();
  readonly calls: string[] = [];
  /** While true every call throws (SES down). */
  down = false;

  private check(call: string): void {
    this.calls.push(call);
    if (this.down) throw Object.assign(new Error('SES is unavailable'), { name: 'TooManyRequestsException' });
  }

  async ensureTenant(tenantId: string): Promise<void> {
    this.check(`ensure ${tenantId}`);
    if (!this.tenants.has(tenantId)) this.tenants.set(tenantId, new Set());
  }

  async deleteTenant(tenantId: string): Promise<void> {
    this.check(`delete ${tenantId}`);
    this.tenants.delete(tenantId);
  }

  async associate(tenantId: string, resource: SesTenantResource): Promise<void> {
    this.check(`associate ${tenantId} ${key(resource)}`);
    const resources = this.tenants.get(tenantId);
    if (!resources) throw Object.assign(new Error(`Tenant ${tenantId} does not exist`), { name: 'NotFoundException' });
    resources.add(key(resource));
  }

  async dissociate(tenantId: string, resource: SesTenantResource): Promise<void> {
    this.check(`dissociate ${tenantId} ${key(resource)}`);
    this.tenants.get(tenantId)?.delete(key(resource));
  }

  /** Pages by name, the next token being the offset (as the SES emulator does). */
  async listTenants(page: { nextToken?: string; pageSize: number }): Promise<SesTenantPage> {
    this.check(`list ${page.nextToken ?? ''}`.trim());
    const names = [...this.tenants.keys()].sort();
    const start = Number(page.nextToken ?? 0);
    const end = Math.min(names.length, start + page.pageSize);
    return { tenants: names.slice(start, end).map((name) => ({ name })), nextToken: end < names.length ? String(end) : null };
  }

  async exists(tenantId: string): Promise<boolean> {
    this.check(`get ${tenantId}`);
    return this.tenants.has(tenantId);
  }

  async usesOurConfigurationSet(tenantId: string): Promise<boolean> {
    this.check(`resources ${tenantId}`);
    return this.tenants.get(tenantId)?.has('configuration-set') ?? false;
  }

  /** The tenant's associations, sorted; undefined when it has no SES tenant. */
  resourcesOf(tenantId: string): string[] | undefined {
    const resources = this.tenants.get(tenantId);
    return resources ? [...resources].sort() : undefined;
  }
}
