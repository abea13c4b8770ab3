/**
 * A domain's settings: delivery settings (tracking, TLS, content kept), receiving turned on or off, and its
 * DMARC report address with its pointer item. Each write is conditional on the owner and on the state the
 * change was planned from: null when a condition does not hold.
 */
import type { Domain, TlsMode } from '#shared/domain/domains/domain';
import type { InboundRoute } from '#shared/domain/domains/inbound-routes';
import type { InboundChange } from '#shared/domain/domains/inbound-change';
import { reportAddressItem } from '../dmarc-addresses';
import { keys } from '../keys';
import { cancelledConditionIndexes, setChanges, transactWrite, updateIfCondition, type Table } from '../table';
import { inboundWrite } from './inbound-write';
import { readStoredDomain, toDomain } from './stored-domain';

/**
 * A change of the domain's DMARC report address (shared/domain/domains/dmarc-reports.ts), planned from the
 * domain as read: `from` the address it had, `to` the one it gets (null: off), and the new value of its
 * suggested DMARC record (at `recordIndex` in `records`, null when it has none).
 */
export interface DmarcReportsChange {
  from: string | null;
  to: string | null;
  recordIndex: number | null;
  recordValue: string;
}

/** Who may change the domain: the account, and with `tenantId` only while that tenant owns it (a key limited to a tenant). */
export interface DomainOwner {
  accountId: string;
  tenantId: string | null;
}

export class DomainSettings {
  constructor(private readonly table: Table) {}

  /**
   * Changes delivery settings of a domain of the account; with `tenantId`, only while that tenant owns
   * it (a key limited to a tenant). With `inbound`, receiving is turned on or off in the same write
   * (shared/domain/domains/inbound-change.ts), conditional on the state the change was planned from.
   * Null when a condition does not hold (the domain is gone, not the owner's, or changed meanwhile).
   */
  async updateSettings(
    owner: DomainOwner,
    domainId: string,
    changes: { open_tracking?: boolean; click_tracking?: boolean; tls_mode?: TlsMode; inbound_store_content?: boolean },
    now: string,
    inbound?: InboundChange,
  ): Promise<Domain | null> {
    const update = setChanges(changes, now);
    const receiving = inbound ? inboundWrite(inbound) : { sets: [], removes: [], conditions: [], names: {}, values: {} };
    const item = await updateIfCondition(this.table, {
      Key: keys.domain(domainId),
      UpdateExpression:
        [update.UpdateExpression, ...receiving.sets].join(', ') +
        (receiving.removes.length ? ` REMOVE ${receiving.removes.join(', ')}` : ''),
      ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...receiving.names },
      ExpressionAttributeValues: {
        ...update.ExpressionAttributeValues,
        ...receiving.values,
        ':account': owner.accountId,
        ...(owner.tenantId ? { ':tenant': owner.tenantId } : {}),
      },
      ConditionExpression: [
        owner.tenantId ? 'account_id = :account AND tenant_id = :tenant' : 'account_id = :account',
        ...receiving.conditions,
      ].join(' AND '),
    });
    return item ? toDomain(item) : null;
  }

  /**
   * Sets or clears the domain's DMARC report address, its suggested DMARC record's value and the
   * address's pointer item (../dmarc-addresses.ts: the old one deleted, the new one put) in one
   * transaction, conditional on the owner and on the address read (`change.from`) and the record's
   * position: null when a condition does not hold (gone, not the owner's, changed meanwhile).
   */
  async changeDmarcReports(
    owner: DomainOwner,
    domain: Pick<Domain, 'id' | 'name'>,
    change: DmarcReportsChange,
    now: string,
  ): Promise<Domain | null> {
    const record = change.recordIndex === null ? null : `#records[${change.recordIndex}]`;
    const sets = ['#updated_at = :now', ...(change.to ? ['#dmarc = :to'] : []), ...(record ? [`${record}.#value = :record_value`] : [])];
    const conditions = [
      owner.tenantId ? 'account_id = :account AND tenant_id = :tenant' : 'account_id = :account',
      change.from ? '#dmarc = :from' : 'attribute_not_exists(#dmarc)',
      ...(record ? [`${record}.#purpose = :dmarc_purpose`] : []),
    ];
    const target = { account_id: owner.accountId, domain_id: domain.id, domain: domain.name };
    try {
      await transactWrite(this.table, [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.domain(domain.id),
            UpdateExpression: `SET ${sets.join(', ')}${change.to ? '' : ' REMOVE #dmarc'}`,
            ConditionExpression: conditions.join(' AND '),
            ExpressionAttributeNames: {
              '#updated_at': 'updated_at',
              '#dmarc': 'dmarc_reports_address',
              ...(record ? { '#records': 'records', '#value': 'value', '#purpose': 'purpose' } : {}),
            },
            ExpressionAttributeValues: {
              ':now': now,
              ':account': owner.accountId,
              ...(owner.tenantId ? { ':tenant': owner.tenantId } : {}),
              ...(change.to ? { ':to': change.to } : {}),
              ...(change.from ? { ':from': change.from } : {}),
              ...(record ? { ':record_value': change.recordValue, ':dmarc_purpose': 'dmarc' } : {}),
            },
          },
        },
        ...(change.from && change.from !== change.to
          ? [{ Delete: { TableName: this.table.name, Key: keys.dmarcReportAddress(change.from, domain.id) } }]
          : []),
        ...(change.to ? [{ Put: { TableName: this.table.name, Item: reportAddressItem(change.to, target) } }] : []),
      ]);
    } catch (error) {
      if (cancelledConditionIndexes(error).length) return null;
      throw error;
    }
    return (await readStoredDomain(this.table, domain.id))?.domain ?? null;
  }

  /**
   * Replaces the domain's inbound routes (in order; [] removes them), only while the owner holds it and it receives
   * mail (`inbound_enabled`): null when a condition does not hold.
   */
  async setInboundRoutes(owner: DomainOwner, domainId: string, routes: readonly InboundRoute[], now: string): Promise<Domain | null> {
    const item = await updateIfCondition(this.table, {
      Key: keys.domain(domainId),
      UpdateExpression: routes.length
        ? 'SET inbound_routes = :routes, inbound_routes_updated_at = :now, updated_at = :now'
        : 'SET inbound_routes_updated_at = :now, updated_at = :now REMOVE inbound_routes',
      ExpressionAttributeValues: {
        ...(routes.length ? { ':routes': routes } : {}),
        ':now': now,
        ':account': owner.accountId,
        ':on': true,
        ...(owner.tenantId ? { ':tenant': owner.tenantId } : {}),
      },
      ConditionExpression: `${owner.tenantId ? 'account_id = :account AND tenant_id = :tenant' : 'account_id = :account'} AND inbound_enabled = :on`,
    });
    return item ? toDomain(item) : null;
  }
}
