/**
 * Link domains (docs/tracking.md, "Link domains"): one item per host, `LINKHOST#<links.<domain>>` / `HOSTING`
 * (shared/domain/domains/link-domain/link-domain.ts), carrying its next step in the due index's own partition
 * (GSI2 `LINKHOSTDUE` / `<due ISO>#<host>`), which the domain-health task reads (./hosted-hosts.ts). Every
 * write is conditional on the stored `version`; a link domain's creation takes a place of its account's bound
 * (counter `ACCOUNT#<id>` / `COUNTER#LINK_DOMAINS`) in the same transaction, its removal gives it back. While it is active, the domain's `link_host` names it
 * (`setLinkHost`, conditional on the domain being there).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { storedLinkDomainSchema, type StoredLinkDomain } from '../../domain/domains/link-domain/link-domain';
import { HostedItems, hostDueKey } from './hosted-hosts';
import { keys } from './keys';
import { isConditionFailure, type Table } from './table';

/** The account's counter of link domains (./counters.ts). */
const COUNTER = 'LINK_DOMAINS';

export const linkDomainDueKey = (host: string, at: Date) => hostDueKey(keys.linkDomainDue(), host, at);

export class LinkDomainRepository extends HostedItems<StoredLinkDomain> {
  constructor(table: Table) {
    super(table, {
      type: 'link_domain',
      schema: storedLinkDomainSchema,
      keyOf: (linkDomain) => linkDomain.host,
      itemKey: (host) => keys.linkDomain(host),
      duePartition: keys.linkDomainDue(),
    });
  }

  /**
   * Stores a new link domain (version 1) if none is stored for its host and its account has fewer than `limit`
   * (its plan's `linkDomains`), both in one transaction: `saved`, `conflict` (read again) or `limit`.
   */
  create(linkDomain: StoredLinkDomain, nextStepAt: Date, limit: number): Promise<'saved' | 'conflict' | 'limit'> {
    return this.createTakingSlot(linkDomain, nextStepAt, COUNTER, limit);
  }

  /** Deletes the item if still at its `version`, giving its account's place back in the same transaction: `deleted`, or `conflict`. */
  remove(linkDomain: StoredLinkDomain): Promise<'deleted' | 'conflict'> {
    return this.removeFreeingSlot(linkDomain, COUNTER);
  }

  /**
   * Sets (a host) or clears (null) the domain's `link_host`, if the domain is still there: `saved`, or `gone`.
   */
  async setLinkHost(domainId: string, host: string | null): Promise<'saved' | 'gone'> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.domain(domainId),
          ConditionExpression: 'attribute_exists(PK)',
          ...(host
            ? { UpdateExpression: 'SET link_host = :host', ExpressionAttributeValues: { ':host': host } }
            : { UpdateExpression: 'REMOVE link_host' }),
        }),
      );
      return 'saved';
    } catch (error) {
      if (isConditionFailure(error)) return 'gone';
      throw error;
    }
  }
}
