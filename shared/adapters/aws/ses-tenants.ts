/**
 * SesTenants adapter: SES v2 tenants named by our tenant id (CreateTenant, DeleteTenant) and their
 * resource associations (our configuration sets, the tenant's domain identities), by ARN. Every call is
 * idempotent: AlreadyExistsException on a create and NotFoundException on a delete count as done.
 * The reconciler reads them back (ListTenants, GetTenant, ListTenantResources). See docs/ses-tenants.md.
 */
import {
  CreateTenantCommand,
  CreateTenantResourceAssociationCommand,
  DeleteTenantCommand,
  DeleteTenantResourceAssociationCommand,
  GetTenantCommand,
  ListTenantResourcesCommand,
  ListTenantsCommand,
  type SESv2Client,
} from '@aws-sdk/client-sesv2';
import type { SesTenantPage, SesTenantResource, SesTenants } from '../../ports/ses-tenants';
import { tlsRequiredConfigurationSet } from './ses-configuration-sets';

export interface SesArnSettings {
  region: string;
  /** The AWS account id (AWS_ACCOUNT_ID); '' makes every call fail with a clear configuration error. */
  accountId: string;
  /** Our configuration set's name (SES_CONFIGURATION_SET). */
  configurationSet: string;
}

/** The ARN partition of a region (`aws`, `aws-cn`, `aws-us-gov`). */
export function partitionOf(region: string): string {
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  return 'aws';
}

/** The ARN of an SES resource we associate with tenants: `arn:<partition>:ses:<region>:<account>:identity/<name>` or `configuration-set/<name>`. */
export function sesResourceArn(settings: SesArnSettings, resource: SesTenantResource): string {
  if (!settings.accountId) throw new Error('Missing configuration: set AWS_ACCOUNT_ID (SES tenant associations are made by ARN)');
  const prefix = `arn:${partitionOf(settings.region)}:ses:${settings.region}:${settings.accountId}`;
  if (resource.kind === 'identity') return `${prefix}:identity/${resource.name}`;
  if (!settings.configurationSet) throw new Error('Missing configuration: set SES_CONFIGURATION_SET');
  return `${prefix}:configuration-set/${resource.tlsRequired ? tlsRequiredConfigurationSet(settings.configurationSet) : settings.configurationSet}`;
}

const errorName = (error: unknown): string | undefined => (error instanceof Error ? error.name : undefined);

/** Runs an SES call; the error named `done` means the wanted state already holds. */
async function idempotent(call: () => Promise<unknown>, done: string): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (errorName(error) === done) return;
    throw error;
  }
}

export class SesV2Tenants implements SesTenants {
  constructor(
    private readonly ses: SESv2Client,
    private readonly settings: SesArnSettings,
  ) {}

  ensureTenant(tenantId: string): Promise<void> {
    return idempotent(() => this.ses.send(new CreateTenantCommand({ TenantName: tenantId })), 'AlreadyExistsException');
  }

  deleteTenant(tenantId: string): Promise<void> {
    return idempotent(() => this.ses.send(new DeleteTenantCommand({ TenantName: tenantId })), 'NotFoundException');
  }

  async associate(tenantId: string, resource: SesTenantResource): Promise<void> {
    const ResourceArn = sesResourceArn(this.settings, resource);
    await idempotent(
      () => this.ses.send(new CreateTenantResourceAssociationCommand({ TenantName: tenantId, ResourceArn })),
      'AlreadyExistsException',
    );
  }

  async dissociate(tenantId: string, resource: SesTenantResource): Promise<void> {
    const ResourceArn = sesResourceArn(this.settings, resource);
    await idempotent(
      () => this.ses.send(new DeleteTenantResourceAssociationCommand({ TenantName: tenantId, ResourceArn })),
      'NotFoundException',
    );
  }

  /**
   * ListTenants: `POST /v2/email/tenants/list {NextToken?, PageSize?}` answers `{Tenants: TenantInfo[], NextToken?}`,
   * a TenantInfo being TenantName, TenantId, TenantArn and CreatedTimestamp; NextToken is present while
   * more tenants follow (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_ListTenants.html).
   */
  async listTenants(page: { nextToken?: string; pageSize: number }): Promise<SesTenantPage> {
    const listed = await this.ses.send(
      new ListTenantsCommand({ PageSize: page.pageSize, ...(page.nextToken ? { NextToken: page.nextToken } : {}) }),
    );
    return {
      tenants: (listed.Tenants ?? []).flatMap((tenant) => (tenant.TenantName ? [{ name: tenant.TenantName }] : [])),
      nextToken: listed.NextToken ?? null,
    };
  }

  async exists(tenantId: string): Promise<boolean> {
    try {
      await this.ses.send(new GetTenantCommand({ TenantName: tenantId }));
      return true;
    } catch (error) {
      if (errorName(error) === 'NotFoundException') return false;
      throw error;
    }
  }

  async usesOurConfigurationSet(tenantId: string): Promise<boolean> {
    const ours = sesResourceArn(this.settings, { kind: 'configuration_set' });
    let NextToken: string | undefined;
    try {
      do {
        const listed = await this.ses.send(
          new ListTenantResourcesCommand({
            TenantName: tenantId,
            Filter: { RESOURCE_TYPE: 'CONFIGURATION_SET' },
            ...(NextToken ? { NextToken } : {}),
          }),
        );
        if ((listed.TenantResources ?? []).some((resource) => resource.ResourceArn === ours)) return true;
        NextToken = listed.NextToken;
      } while (NextToken);
      return false;
    } catch (error) {
      if (errorName(error) === 'NotFoundException') return false;
      throw error;
    }
  }
}
