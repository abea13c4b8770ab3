/** The functions run on a fixed schedule: the reconciler and the domain-health task. */
import type { Grant } from './access';
import type { Capability } from './capabilities';
import { mailBucketReadWrite, sendsTo, sesReadIdentities, sesSweepTenants, tableReadWrite } from './grants';
import { MTA_STS_HOSTING_GRANTS } from './mta-sts';

/**
 * A function run on a fixed schedule, not fed by a queue or stream: an EventBridge rule in AWS, a timer
 * in the local cloud (localstack/cloud/workers/scheduled-tasks.ts).
 */
export interface ScheduledTaskDefinition {
  name: string;
  entry: string;
  /** Period in AWS (an EventBridge rate: whole minutes). */
  everyMinutes: number;
  /** Period on the local cloud (LOCAL_TASK_PERIOD_MS overrides it), so a local stack recovers in seconds. */
  localEveryMs: number;
  /** Lambda timeout; below the period, so passes never overlap. */
  timeoutSeconds: number;
  /** Lambda memory (MB); unset: the functions' default (docs/deploy.md, "Memory sizing"). */
  memoryMb?: number;
  /** What its code builds (./capabilities.ts): the shared/services/ modules its handler composes. */
  capabilities: Capability[];
  grants: Grant[];
}

export const SCHEDULED_TASKS: ScheduledTaskDefinition[] = [
  {
    // Re-drives stuck work found in the due index (docs/reliability.md).
    name: 'reconciler',
    entry: 'functions/tasks/reconciler/handler.ts',
    capabilities: [
      'platform',
      'access',
      'tenants',
      'domains',
      'emails',
      'webhooks',
      'automations',
      'inbound',
      'recovery',
      'deliverability',
      'messaging',
      'blobs',
      'ses',
    ],
    everyMinutes: 1,
    localEveryMs: 2000,
    timeoutSeconds: 50,
    grants: [
      tableReadWrite,
      sendsTo('send'),
      sendsTo('webhookDeliveries'),
      // Automation runs whose step or wake-up was lost.
      sendsTo('automationSteps'),
      // email.delivery_delayed and email.failed for sent emails without an outcome.
      sendsTo('webhookEvents'),
      // Raw inbound messages stored and never queued are deleted (docs/inbound.md).
      mailBucketReadWrite,
      // SES tenants without a tenant of ours are deleted, and missing ones of ours created again (docs/ses-tenants.md).
      sesSweepTenants,
      // Domains SES was still verifying at their check: asked again until it has (docs/domains.md).
      sesReadIdentities,
    ],
  },
  {
    // Domains whose health check is due (daily, and just verified): checked in DNS and stored; a change
    // raises domain.health_changed (docs/deliverability.md, "Domain health").
    name: 'domain-health',
    entry: 'functions/tasks/domain-health/handler.ts',
    capabilities: [
      'platform',
      'access',
      'tenants',
      'domains',
      'deliverability',
      'mta-sts-hosting',
      'mta-sts-provisioning',
      'link-domains',
      'messaging',
    ],
    everyMinutes: 1,
    localEveryMs: 2000,
    timeoutSeconds: 50,
    grants: [
      tableReadWrite,
      sendsTo('webhookEvents'),
      // Hosted MTA-STS policy hosts being provisioned: their certificate's validation followed, their custom
      // domain name created once it is issued (docs/deliverability.md, "Hosted MTA-STS policy").
      ...MTA_STS_HOSTING_GRANTS,
    ],
  },
];
