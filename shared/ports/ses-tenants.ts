/** Port: the mail provider's tenants (SES v2 tenants in AWS: shared/adapters/aws/ses-tenants.ts). */

/**
 * A resource a provider tenant may use: a sending identity (a domain), or our configuration set (the main
 * one, or with `tlsRequired` its TLS-required twin, which domains with `tls_mode: enforced` send through).
 */
export type SesTenantResource = { kind: 'identity'; name: string } | { kind: 'configuration_set'; tlsRequired?: boolean };

/**
 * The provider's tenants (SES v2 tenants, named by our tenant id): SES keeps sending reputation and status
 * per tenant, and a send naming a tenant may use only the resources associated with it. Every call is
 * idempotent: creating what exists, or removing what is gone, is done. Throws on provider failure.
 */
export interface SesTenants {
  /** Creates the provider tenant (CreateTenant); one that exists is not an error. */
  ensureTenant(tenantId: string): Promise<void>;
  /** Deletes the provider tenant and with it every association (DeleteTenant); an absent one is not an error. */
  deleteTenant(tenantId: string): Promise<void>;
  /** Lets the tenant use the resource (CreateTenantResourceAssociation); an existing association is not an error. */
  associate(tenantId: string, resource: SesTenantResource): Promise<void>;
  /** Removes the association (DeleteTenantResourceAssociation); an absent one (or tenant) is not an error. */
  dissociate(tenantId: string, resource: SesTenantResource): Promise<void>;
  /** One page of the account's provider tenants (ListTenants), with the token of the next page (null: the last). */
  listTenants(page: { nextToken?: string; pageSize: number }): Promise<SesTenantPage>;
  /** Whether the provider tenant exists (GetTenant). */
  exists(tenantId: string): Promise<boolean>;
  /** Whether the provider tenant may use our configuration set (ListTenantResources); false when it does not exist. */
  usesOurConfigurationSet(tenantId: string): Promise<boolean>;
}

export interface SesTenantPage {
  tenants: { name: string }[];
  nextToken: string | null;
}
