/** The key layout of sending domains, their checks, hosted MTA-STS policies and DMARC reports (./entity-layout.ts). */
import { healthDueKey } from '../domain-health';
import { dueAttributes } from '../due-index';
import { linkDomainDueKey } from '../link-domains';
import { hostingDueKey } from '../mta-sts-hosting';
import type { LayoutArea } from './entity-layout';

export const DOMAINS: LayoutArea = {
  title: 'Domains',
  entities: [
    {
      item: 'domain',
      description:
        "its records, settings and sealed DKIM key; the account's or one of its tenants' (`tenant_id`, written with its claim and membership in one transaction)",
      pk: 'DOMAIN#<dom>',
      sk: 'DOMAIN',
      indexes: [
        { index: 'GSI1', pk: 'ACCOUNT#<acc>#DOMAINS', sk: '<dom>' },
        {
          index: 'GSI2',
          pk: 'DUE#<shard>',
          sk: '<due ISO>#DOMAIN#<dom>',
          note: 'the due index, while its DNS checked out and SES still verifies it (`provider_pending_since`)',
        },
      ],
      built: (k, v) => [
        {
          ...k.domain(v.dom),
          GSI1PK: k.domainsByAccount(v.acc),
          GSI1SK: v.dom,
          ...dueAttributes('DOMAIN', v.dom, Date.parse(v['due ISO'])),
        },
      ],
    },
    {
      item: 'domain name claim',
      description:
        "one owner per domain name: put with `attribute_not_exists` in the domain's transaction; carries the domain's id, status and owning `tenant_id` for sends",
      pk: 'DOMAINNAME#<name>',
      sk: 'DOMAINNAME',
      built: (k, v) => [k.domainName(v.name)],
    },
    {
      item: 'tenant domain (membership)',
      description: "a tenant's domains, its own partition, in id order",
      pk: 'TENANTDOMAINS#<ten>',
      sk: '<dom>',
      built: (k, v) => [k.tenantDomain(v.ten, v.dom), { PK: k.tenantDomains(v.ten) }],
    },
    {
      item: 'domain health',
      description:
        'the last stored check: findings open and fixed, summary, `version`; TTL 3 days past the next check; [deliverability.md](../deliverability.md#domain-health)',
      pk: 'DOMAINHEALTH#<dom>',
      sk: 'HEALTH',
      indexes: [{ index: 'GSI2', pk: 'HEALTHDUE', sk: '<next check ISO>#<dom>', note: 'the next check, read by the domain-health task' }],
      built: (k, v) => [{ ...k.domainHealth(v.dom), ...healthDueKey(v.dom, new Date(v['next check ISO'])) }, { GSI2PK: k.healthDue() }],
    },
    {
      item: 'hosted MTA-STS policy',
      description:
        "mode, max_age, policy id, the host's status, certificate ARN, validation record, custom domain name target, the last DNS check, `version`: every write conditional on it; [deliverability.md](../deliverability.md#hosted-mta-sts-policy)",
      pk: 'MTASTS#<inbound.<domain>>',
      sk: 'HOSTING',
      indexes: [{ index: 'GSI2', pk: 'MTASTSDUE', sk: '<due ISO>#<policy domain>', note: 'its next step, read by the domain-health task' }],
      built: (k, v) => [
        { ...k.mtaStsHosting(v['inbound.<domain>']), ...hostingDueKey(v['policy domain'], new Date(v['due ISO'])) },
        { GSI2PK: k.mtaStsDue() },
      ],
    },
    {
      item: 'link domain',
      description:
        "a sending domain's `links.<domain>`: the host's status, certificate ARN, validation record, custom domain name target, the last DNS check, `version`: every write conditional on it; [tracking.md](../tracking.md#link-domains)",
      pk: 'LINKHOST#<links.<domain>>',
      sk: 'HOSTING',
      indexes: [{ index: 'GSI2', pk: 'LINKHOSTDUE', sk: '<due ISO>#<host>', note: 'its next step, read by the domain-health task' }],
      built: (k, v) => [
        { ...k.linkDomain(v['links.<domain>']), ...linkDomainDueKey(v.host, new Date(v['due ISO'])) },
        { GSI2PK: k.linkDomainDue() },
      ],
    },
    {
      item: 'DMARC report address',
      description:
        "a domain whose aggregate reports go to the address; written in the transaction that sets the domain's `dmarc_reports_address`, deleted with the domain; [deliverability.md](../deliverability.md#dmarc-aggregate-reports)",
      pk: 'DMARCRUA#<address>',
      sk: '<dom>',
      built: (k, v) => [k.dmarcReportAddress(v.address, v.dom), { PK: k.dmarcReportAddressPartition(v.address) }],
    },
    {
      item: 'DMARC report',
      description: "one per (reporter, report_id): put if absent, the dedupe; TTL: the account's `received_emails_days`",
      pk: 'DMARC#<dom>',
      sk: 'REPORT#<sha256(org_name, report_id)>',
      built: (k, v) => [k.dmarcReport(v.dom, v['sha256(org_name, report_id)']), { PK: k.dmarcPartition(v.dom) }],
    },
    {
      item: 'DMARC rows',
      description:
        "a report's rows by source IP, 250 an item, in the report's transaction; a range of days is one Query; TTL as the report",
      pk: 'DMARC#<dom>',
      sk: '<YYYY-MM-DD>#<report key>#<nn>',
      built: (k, v) => [
        k.dmarcRows(v.dom, v['YYYY-MM-DD'], v['report key'], Number(v.nn)),
        { PK: k.dmarcPartition(v.dom), SKPrefix: k.dmarcDays(v['YYYY-MM-DD'], v['YYYY-MM-DD']).from },
      ],
    },
  ],
};
