/**
 * A domain's checks: the records found in DNS and the provider's verification recorded (with the claim's
 * copy of the status), and its place in the due index while the provider is still verifying (the
 * reconciler re-checks it: shared/usecases/domains/reconcile-provider-pending.ts).
 */
import type { DnsRecord, Domain, DomainStatus, ProviderVerification } from '#shared/domain/domains/domain';
import { DEFAULT_RECOVERY_BOUNDS, type RecoveryBounds } from '#shared/domain/reliability/bounds';
import { REMOVE_DUE, setDue } from '../due-index';
import { keys } from '../keys';
import { cancelledConditionIndexes, transactWrite, updateIfCondition, type Table, type TransactItem } from '../table';
import { inboundWrite } from './inbound-write';
import { readStoredDomain } from './stored-domain';

/** What a check found, and the state it was made from. */
export interface DomainCheck {
  status: DomainStatus;
  records: DnsRecord[];
  at: string;
  inbound_enabled: boolean;
  provider?: ProviderVerification;
  ifCheckedAt?: string;
  /** The DMARC report address the records were read with (its record's `rua=`): a PATCH changing it meanwhile refuses the check. */
  dmarc_reports_address?: string | null;
}

/** Conditions of a write, with their values. */
interface Conditions {
  conditions: string[];
  values: Record<string, unknown>;
}

/**
 * The part of a check's write that keeps the due index (../due-index.ts, kind DOMAIN) in step
 * with the provider's verification: a check finding the provider still verifying puts the domain in the
 * index, due a re-check later, and starts the provider's window (kept by the next pending checks); any
 * other check takes it out. The reconciler then asks the provider (shared/usecases/domains/reconcile-provider-pending.ts).
 */
function providerRecheckWrite(domainId: string, provider: ProviderVerification | undefined, at: string, recheckMs: number) {
  if (provider?.status !== 'pending') return { set: '', remove: ` REMOVE ${REMOVE_DUE}, provider_pending_since`, values: {} };
  const due = setDue('DOMAIN', domainId, Date.parse(at) + recheckMs);
  return { set: `, ${due.set}, provider_pending_since = if_not_exists(provider_pending_since, :at)`, remove: '', values: due.values };
}

/** With `ifCheckedAt` (a provider-only re-check of the last DNS check): only while no other check was recorded since. */
function sameCheckCondition(check: DomainCheck): Conditions {
  return check.ifCheckedAt
    ? { conditions: ['last_checked_at = :checkedAt'], values: { ':checkedAt': check.ifCheckedAt } }
    : { conditions: [], values: {} };
}

/** The records carry the DMARC record with the report address of when they were read (shared/usecases/dmarc/report-settings.ts). */
function sameDmarcCondition(check: DomainCheck): Conditions {
  if (check.dmarc_reports_address === undefined) return { conditions: [], values: {} };
  if (check.dmarc_reports_address === null)
    return {
      conditions: ['(attribute_not_exists(dmarc_reports_address) OR attribute_type(dmarc_reports_address, :nullType))'],
      values: { ':nullType': 'NULL' },
    };
  return { conditions: ['dmarc_reports_address = :dmarcAddress'], values: { ':dmarcAddress': check.dmarc_reports_address } };
}

export class DomainChecks {
  constructor(
    private readonly table: Table,
    private readonly bounds: Pick<RecoveryBounds, 'providerRecheckMs'> = DEFAULT_RECOVERY_BOUNDS,
  ) {}

  /**
   * Records a check: the status, the records and, when the provider was asked, its verification; the
   * claim's copy of the status changes in the same transaction, and so does the domain's place in the due
   * index (in it while the provider is still verifying, out of it otherwise: providerRecheckWrite).
   * Conditional on receiving being as it was when the records were checked (`inbound_enabled`): a PATCH
   * turning it on or off meanwhile changed the records, so the check is refused (null) rather than undo
   * it. With `ifCheckedAt` (a provider-only re-check of the last DNS check), only while no other check was
   * recorded since.
   */
  async recordCheck(accountId: string, domainId: string, check: DomainCheck): Promise<Domain | null> {
    const current = await readStoredDomain(this.table, domainId);
    if (!current || current.domain.account_id !== accountId) return null;
    try {
      await transactWrite(this.table, [
        this.checkUpdate(accountId, domainId, check),
        {
          Update: {
            TableName: this.table.name,
            Key: keys.domainName(current.domain.name),
            UpdateExpression: 'SET #status = :status',
            ConditionExpression: 'domain_id = :domain',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':status': check.status, ':domain': domainId },
          },
        },
      ]);
    } catch (error) {
      if (cancelledConditionIndexes(error).length) return null;
      throw error;
    }
    return (await readStoredDomain(this.table, domainId))?.domain ?? null;
  }

  /** The check's write of the domain item, conditional on the owner and the state the check was made from. */
  private checkUpdate(accountId: string, domainId: string, check: DomainCheck): TransactItem {
    const receiving = inboundWrite({ kind: 'keep', enabled: check.inbound_enabled });
    const provider = check.provider ? { set: ', provider = :provider', values: { ':provider': check.provider } } : { set: '', values: {} };
    const sameCheck = sameCheckCondition(check);
    const sameDmarc = sameDmarcCondition(check);
    const recheck = providerRecheckWrite(domainId, check.provider, check.at, this.bounds.providerRecheckMs);
    return {
      Update: {
        TableName: this.table.name,
        Key: keys.domain(domainId),
        UpdateExpression:
          'SET #status = :status, records = :records, last_checked_at = :at, updated_at = :at' +
          (check.status === 'verified' ? ', verified_at = if_not_exists(verified_at, :at)' : '') +
          provider.set +
          recheck.set +
          recheck.remove,
        ConditionExpression: ['account_id = :account', ...receiving.conditions, ...sameCheck.conditions, ...sameDmarc.conditions].join(
          ' AND ',
        ),
        ExpressionAttributeNames: { '#status': 'status', ...receiving.names },
        ExpressionAttributeValues: {
          ':status': check.status,
          ':records': check.records,
          ':at': check.at,
          ':account': accountId,
          ...receiving.values,
          ...provider.values,
          ...sameCheck.values,
          ...sameDmarc.values,
          ...recheck.values,
        },
      },
    };
  }

  /**
   * Moves the due time of a domain the provider is still verifying (the reconciler, after asking it),
   * only while the check it read is the last one recorded: false when another check was recorded since
   * (that write put the domain in the due index, or took it out, itself).
   */
  async postponeProviderRecheck(domainId: string, checkedAt: string, dueAtMs: number): Promise<boolean> {
    const due = setDue('DOMAIN', domainId, dueAtMs);
    const item = await updateIfCondition(this.table, {
      Key: keys.domain(domainId),
      UpdateExpression: `SET ${due.set}`,
      ConditionExpression: 'last_checked_at = :checkedAt',
      ExpressionAttributeValues: { ...due.values, ':checkedAt': checkedAt },
      ReturnValues: 'NONE',
    });
    return item !== null;
  }

  /**
   * Takes the domain out of the due index (the provider's window is over, or a write left it there), only
   * while the check it read (`checkedAt`, null: none yet) is the last one recorded.
   */
  async clearProviderRecheck(domainId: string, checkedAt: string | null): Promise<boolean> {
    const item = await updateIfCondition(this.table, {
      Key: keys.domain(domainId),
      UpdateExpression: `REMOVE ${REMOVE_DUE}`,
      ConditionExpression:
        checkedAt === null ? 'attribute_exists(PK) AND attribute_not_exists(last_checked_at)' : 'last_checked_at = :checkedAt',
      ...(checkedAt === null ? {} : { ExpressionAttributeValues: { ':checkedAt': checkedAt } }),
      ReturnValues: 'NONE',
    });
    return item !== null;
  }
}
