/** The SMTP relay and inbound MX listener: one long-running Fargate service. */
import type { Grant } from './access';
import { SENDING_STACK, type Capability } from './capabilities';
import { mailBucketReadWrite, oneTimeSchedules, sendsTo, tableReadWrite } from './grants';

/**
 * The SMTP relay (docs/smtp.md): one long-running process per Fargate task behind a Network Load Balancer
 * on 587. It calls the send core directly, so it holds what the send path needs and nothing more: the
 * table (the send's one read and its accept), the mail bucket (the raw message) and the scheduler
 * (scheduled sends). The image is built from the relay's bundle (`npm run build`:
 * `<functionsDir>/smtp-relay/index.js` and the Dockerfile beside it).
 */
export interface SmtpRelayDefinition {
  name: string;
  entry: string;
  /** The public port (the load balancer's listener). */
  port: number;
  /** The container's port: unprivileged, as the image runs as a non-root user. */
  containerPort: number;
  /** Fargate task size: CPU units (1024 = one vCPU) and MiB. */
  cpu: number;
  memoryMiB: number;
  /** Tasks once the TLS secret is given (context `smtpTlsSecretArn`); 0 until then. */
  desiredCount: number;
  /**
   * Once the TLS secret is given, the service scales between `minTasks` and `maxTasks` (context
   * `smtpRelayMaxTasks` overrides it, up to `maxTasksLimit`) on two target-tracking policies: the tasks' average
   * CPU, and the open SMTP sessions per task (the EMF metric each task writes, shared/doors/smtp/sessions-metric.ts),
   * kept well under SMTP_MAX_CLIENTS. A task taken out on scale-in stops taking connections and lets its sessions
   * finish (deregistration delay and stopTimeoutSeconds).
   */
  autoscaling: {
    minTasks: number;
    maxTasks: number;
    maxTasksLimit: number;
    cpuTargetPercent: number;
    sessionsPerTaskTarget: number;
    scaleOutCooldownSeconds: number;
    scaleInCooldownSeconds: number;
  };
  /** ECS waits this long after SIGTERM (the relay lets sessions finish within SMTP_CLOSE_TIMEOUT_S, below it). */
  stopTimeoutSeconds: number;
  /** The load balancer's health check of each task: a TCP connect to the container port. */
  healthCheck: { protocol: 'TCP'; intervalSeconds: number; healthyThreshold: number; unhealthyThreshold: number };
  /** Variables receiving the STARTTLS key and certificate PEMs from the Secrets Manager secret's `key` and `cert` fields. */
  tlsSecretEnv: { key: string; cert: string };
  /**
   * The inbound MX listener (docs/inbound.md) runs in the same task and process: the load balancer's
   * `port` (25) to the container's `containerPort` (MX_PORT in `environment`). It checks each message's
   * SPF, DKIM and DMARC over outbound DNS (the VPC resolver, or DNS_RESOLVERS): no grant needed.
   */
  mx: { port: number; containerPort: number };
  /** Settings of the relay's environment (shared/doors/smtp/relay-config.ts, shared/doors/mx/mx-config.ts). */
  environment: Record<string, string>;
  /** What its code builds (./capabilities.ts): the shared/services/ modules its entry composes. */
  capabilities: Capability[];
  /**
   * The send path's needs, a subset of the `emails` API group's grants: no send queue (the send core writes
   * the email and the outbox stream enqueues it; test events are an API-only route), no SES and no KMS (the
   * send-email worker signs and sends); plus, for the MX listener, sending to the inbound queue.
   */
  grants: Grant[];
}

export const SMTP_RELAY: SmtpRelayDefinition = {
  name: 'smtp-relay',
  entry: 'functions/smtp-relay/main.ts',
  capabilities: [...SENDING_STACK, 'suppressions', 'inbound', 'mail-domains', 'messaging', 'blobs', 'schedules'],
  port: 587,
  containerPort: 2587,
  cpu: 512,
  memoryMiB: 2048,
  desiredCount: 2,
  autoscaling: {
    minTasks: 2,
    maxTasks: 10,
    maxTasksLimit: 100,
    cpuTargetPercent: 60,
    // Half of SMTP_MAX_CLIENTS (500): room for a burst of connections while a new task starts (about a minute).
    sessionsPerTaskTarget: 250,
    scaleOutCooldownSeconds: 60,
    // Slow to scale in: a task leaving lets its sessions finish first, and connection counts swing.
    scaleInCooldownSeconds: 300,
  },
  stopTimeoutSeconds: 60,
  healthCheck: { protocol: 'TCP', intervalSeconds: 10, healthyThreshold: 2, unhealthyThreshold: 2 },
  tlsSecretEnv: { key: 'SMTP_TLS_KEY', cert: 'SMTP_TLS_CERT' },
  mx: { port: 25, containerPort: 2525 },
  environment: { SMTP_PORT: '2587', SMTP_CLOSE_TIMEOUT_S: '45', SMTP_MAX_CLIENTS: '500', SMTP_MAX_BUFFERED_MB: '1024', MX_PORT: '2525' },
  grants: [
    tableReadWrite,
    // The relay's raw messages (raw/), and the MX listener's (inbound/), written before its 250.
    mailBucketReadWrite,
    oneTimeSchedules,
    // The MX listener hands each stored message to the inbound worker.
    sendsTo('inbound'),
  ],
};
