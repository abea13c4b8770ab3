/**
 * The one description of the service's cloud resources.
 *
 * Both the CDK stack (infra/stacks) and the embedded local cloud (localstack/) read these files, so the
 * table, queues, topics, buckets, API routes and worker event sources cannot drift between AWS and a
 * developer's machine. Plain data only: no CDK or AWS SDK imports here.
 *
 * Functions receive the physical names/URLs through the environment variables named here
 * (see shared/config/config.ts for the reader).
 *
 *   table.ts, queues.ts, resources.ts   the resources (the table; the queues; topics, buckets, SES's
 *                                       configuration set, the schedule group, the secrets key)
 *   access.ts, grants.ts                the access a function may have to each, and the grants by name
 *   capabilities.ts                     what a function's code builds (shared/services/ modules), beside its grants
 *   api-groups.ts, mta-sts.ts           the HTTP API's groups; the hosted MTA-STS policies' own API
 *   workers.ts, stream-workers.ts       the queue workers; the workers fed by the table's stream
 *   scheduled-tasks.ts, smtp-relay.ts   the tasks on a schedule; the SMTP relay and MX listener (Fargate)
 *   settings.ts                         the settings every function reads, with their defaults
 */
export type { Access, Grant, Resource } from './access';
export type { Capability } from './capabilities';
export { API_GROUPS, type ApiGroupDefinition } from './api-groups';
export { MTA_STS_API, MTA_STS_HOSTING_GRANTS } from './mta-sts';
export { QUEUES, type QueueDefinition, type QueueId } from './queues';
export {
  BUCKETS,
  CONFIGURATION_SET,
  SCHEDULE_GROUP,
  SECRETS_KEY,
  TOPICS,
  type BucketDefinition,
  type BucketId,
  type TopicDefinition,
  type TopicId,
} from './resources';
export { SCHEDULED_TASKS, type ScheduledTaskDefinition } from './scheduled-tasks';
export { SETTINGS } from './settings';
export { SMTP_RELAY, type SmtpRelayDefinition } from './smtp-relay';
export { STREAM_WORKERS, type FilterPattern, type FilterValue, type StreamWorkerDefinition } from './stream-workers';
export { TABLE, type TableDefinition } from './table';
export { WORKERS, type WorkerDefinition } from './workers';
