/**
 * Domains repository: a domain's life, one step repository per step (./crud.ts, ./settings.ts,
 * ./tenants.ts, ./checks.ts), gathered for the callers that use several (the services' `domains`). A
 * composition root that needs only some steps constructs those alone.
 */
import { DEFAULT_RECOVERY_BOUNDS, type RecoveryBounds } from '#shared/domain/reliability/bounds';
import type { Table } from '../table';
import { DomainChecks } from './checks';
import { DomainCrud } from './crud';
import { DomainSettings } from './settings';
import { DomainTenants } from './tenants';

export class DomainRepository {
  readonly create: DomainCrud['create'];
  readonly claimOf: DomainCrud['claimOf'];
  readonly get: DomainCrud['get'];
  readonly findOwned: DomainCrud['findOwned'];
  readonly findByRef: DomainCrud['findByRef'];
  readonly list: DomainCrud['list'];
  readonly delete: DomainCrud['delete'];
  readonly updateSettings: DomainSettings['updateSettings'];
  readonly changeDmarcReports: DomainSettings['changeDmarcReports'];
  readonly setInboundRoutes: DomainSettings['setInboundRoutes'];
  readonly listForTenant: DomainTenants['listForTenant'];
  readonly tenantDomainIds: DomainTenants['tenantDomainIds'];
  readonly assignToTenant: DomainTenants['assignToTenant'];
  readonly releaseFromTenant: DomainTenants['releaseFromTenant'];
  readonly forgetMembership: DomainTenants['forgetMembership'];
  readonly recordCheck: DomainChecks['recordCheck'];
  readonly postponeProviderRecheck: DomainChecks['postponeProviderRecheck'];
  readonly clearProviderRecheck: DomainChecks['clearProviderRecheck'];

  constructor(table: Table, bounds: Pick<RecoveryBounds, 'providerRecheckMs'> = DEFAULT_RECOVERY_BOUNDS) {
    const crud = new DomainCrud(table);
    this.create = crud.create.bind(crud);
    this.claimOf = crud.claimOf.bind(crud);
    this.get = crud.get.bind(crud);
    this.findOwned = crud.findOwned.bind(crud);
    this.findByRef = crud.findByRef.bind(crud);
    this.list = crud.list.bind(crud);
    this.delete = crud.delete.bind(crud);
    const settings = new DomainSettings(table);
    this.updateSettings = settings.updateSettings.bind(settings);
    this.changeDmarcReports = settings.changeDmarcReports.bind(settings);
    this.setInboundRoutes = settings.setInboundRoutes.bind(settings);
    const tenants = new DomainTenants(table);
    this.listForTenant = tenants.listForTenant.bind(tenants);
    this.tenantDomainIds = tenants.tenantDomainIds.bind(tenants);
    this.assignToTenant = tenants.assignToTenant.bind(tenants);
    this.releaseFromTenant = tenants.releaseFromTenant.bind(tenants);
    this.forgetMembership = tenants.forgetMembership.bind(tenants);
    const checks = new DomainChecks(table, bounds);
    this.recordCheck = checks.recordCheck.bind(checks);
    this.postponeProviderRecheck = checks.postponeProviderRecheck.bind(checks);
    this.clearProviderRecheck = checks.clearProviderRecheck.bind(checks);
  }
}
