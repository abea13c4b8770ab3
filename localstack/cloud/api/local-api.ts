/**
 * The local API Gateway's server (./api-server.ts), listening before the template is deployed: the
 * template's ApiEndpoint (LINKS_BASE_URL, the base of signed links) is its URL. Its routes and handlers
 * are filled in once the functions are loaded; until the stack is up, /health answers 503 starting. The
 * local pages read the emulators (the SES mailbox, the DNS records, the webhook inbox) and the local S3's
 * lifecycle sweep once there is one.
 */
import type { Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { createApiServer, type LocalGateway, type LocalPages } from './api-server';
import { createCustomDomainsServer } from './custom-domains-server';
import type { LocalEmulators } from '../services/local-emulators';
import type { LifecycleSweeper } from '../s3/s3-lifecycle-sweeper';
import type { TtlSweeper } from '../dynamodb/dynamodb-ttl-sweep';
import type { TaskStatus } from '../workers/scheduled-tasks';
import type { StartContext } from '../stack/start-context';

export interface LocalApi {
  /** `http://<host>:<port>` */
  url: string;
  /** `https://<host>:<port>`: API Gateway's custom domain names (./custom-domains-server.ts). */
  customDomainsUrl: string;
  gateway: LocalGateway;
  /** /health's answer; "starting" until the start sets the stack's. */
  health: LocalPages['health'];
  /** The local S3's lifecycle sweeper, once the buckets are deployed. */
  s3Lifecycle?: LifecycleSweeper;
  /** The local DynamoDB's TTL sweeper, once the table is deployed (../dynamodb/dynamodb-ttl-sweep.ts). */
  ttlSweeper?: TtlSweeper;
  /** A scheduled task's pass now, once the workers run (`POST /_local/tasks/<name>/run`; ../workers/scheduled-tasks.ts). */
  runTask?: (name: string) => Promise<TaskStatus | null>;
}

function closeServer(server: Server | HttpsServer): Promise<void> {
  return new Promise<void>((resolveClose) => {
    server.close(() => resolveClose());
    server.closeAllConnections();
  });
}

function listen(server: Server | HttpsServer, port: number, host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolvePort(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function localPages(api: Omit<LocalApi, 'url' | 'customDomainsUrl'>, { ses, inbox, dns }: LocalEmulators): LocalPages {
  return {
    health: () => api.health(),
    sesMessages: (query) => ses.findMessages(query),
    sesIdentities: () => ses.listIdentities(),
    sesMailboxHtml: () => ses.mailboxHtml(),
    // The local S3's lifecycle sweep at a given time (POST /_local/s3/lifecycle-sweep; docs/local-cloud/s3.md).
    s3LifecycleSweep: (now, within) => api.s3Lifecycle?.sweep(now, within) ?? { expired: [], aborted: [] },
    // The local DynamoDB's TTL deletions at the functions' clock, or at `now` (POST /_local/ttl/sweep).
    ttlSweep: (now) => api.ttlSweeper?.sweep(now) ?? Promise.resolve({ deleted: {}, now: (now ?? new Date()).toISOString() }),
    runTask: (name) => api.runTask?.(name) ?? Promise.resolve(null),
    webhookInbox: { list: (path) => inbox.list(path), clear: (path) => inbox.clear(path) },
    dns: (method, pathname, request) => dns.answerControl(method, pathname, request),
  };
}

export async function startLocalApi(ctx: StartContext, emulators: LocalEmulators): Promise<LocalApi> {
  const api: Omit<LocalApi, 'url' | 'customDomainsUrl'> = {
    gateway: { routes: [], apiRoutes: {}, handlers: {} },
    health: async () => ({ ok: false, components: { functions: 'starting' } }),
  };
  const server = createApiServer(api.gateway, localPages(api, emulators), ctx.log);
  const port = await listen(server, ctx.options.port, ctx.host);
  ctx.stops.add(() => closeServer(server));
  const { acm, apigatewayv2 } = emulators;
  const domains = createCustomDomainsServer(
    api.gateway,
    {
      certificateArnOf: (host) => apigatewayv2.certificateArnOf(host),
      targetOf: (host) => apigatewayv2.targetOf(host),
      issuedCertificate: (arn) => acm.issuedCertificate(arn),
    },
    ctx.log,
  );
  const domainsPort = await listen(domains, ctx.options.ports?.customDomains ?? 0, ctx.host);
  ctx.stops.add(() => closeServer(domains));
  return Object.assign(api, { url: `http://${ctx.host}:${port}`, customDomainsUrl: `https://${ctx.host}:${domainsPort}` });
}
