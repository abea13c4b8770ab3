/**
 * The hosted MTA-STS policy tools (docs/deliverability.md, "Hosted MTA-STS policy"): read the policy the
 * service hosts for a domain's receiving subdomain and the records to publish for it (GET
 * /domains/{id}/mta-sts), host or change it (PUT), stop hosting it (DELETE). Each takes the domain's id or
 * its name. Scopes: reading domains:write, account:read, mail:admin or full; hosting and stopping domains:write, mail:admin or full.
 */
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../../api/client';
import {
  getMtaSts,
  hostMtaSts,
  MTA_STS_MODES,
  MTA_STS_RECORD_PURPOSES,
  mtaStsLine,
  stopMtaSts,
  type MtaStsHosting,
} from '../../api/mta-sts';
import { okResult, runTool } from '../result';
import { domainArg as domain, domainIdOf } from './domain-ref';
import { recordLines, recordsExplained } from './hosted-records';

/** What each record is for, for the tools' descriptions. */
const RECORDS_EXPLAINED = recordsExplained(MTA_STS_RECORD_PURPOSES);

/** The status line, the policy URL and message, then each record: what it is for, whether found, what to publish. */
export function mtaStsSummary(hosting: MtaStsHosting): string {
  const lines = [`MTA-STS policy of ${mtaStsLine(hosting)}, policy id ${hosting.policy_id}.`, `Policy URL: ${hosting.policy_url}`];
  if (hosting.message) lines.push(`Message: ${hosting.message}`);
  if (hosting.next_check_at) lines.push(`Next check: ${hosting.next_check_at}.`);
  lines.push('Records to publish, in order:', ...recordLines(hosting.records));
  return lines.join('\n');
}

export function registerMtaStsTools(server: McpServer, api: ApiClient): void {
  server.registerTool(
    'get_mta_sts_policy',
    {
      title: "Get a domain's hosted MTA-STS policy",
      description: `Get the MTA-STS policy (RFC 8461) the service hosts for the domain's receiving subdomain inbound.<domain> (GET /domains/{id}/mta-sts): its status (pending_certificate: publish certificate_validation; pending_dns: the policy is served, publish policy_host and policy; active: senders find it; failed: see message, host it again to start over), mode, policy URL, a message saying what happens next or what to do, and the records to publish, each verified or pending with what the last check found. ${RECORDS_EXPLAINED} 404 not_found when no policy is hosted (host_mta_sts_policy hosts one). Needs domains:write, account:read, mail:admin or full.`,
      inputSchema: { domain },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const hosting = await getMtaSts(api, await domainIdOf(api, args.domain));
        return okResult(mtaStsSummary(hosting), { ...hosting });
      }),
  );

  server.registerTool(
    'host_mta_sts_policy',
    {
      title: 'Host or change an MTA-STS policy',
      description: `Host the MTA-STS policy of the domain's receiving subdomain, or change its mode or max_age (PUT /domains/{id}/mta-sts). The domain must be verified and receive mail (inbound_enabled), else 400 validation_error. A new policy starts pending_certificate: within a minute the certificate_validation record is listed (get_mta_sts_policy); publish each record as it appears. Calling again with the same arguments takes the next step now (checks the records). Changing mode or max_age gives the policy a new id: publish the new policy record. Use testing until the MX's certificate is valid for its name; enforce makes senders that apply the policy refuse to deliver without valid TLS. ${RECORDS_EXPLAINED} Needs domains:write, mail:admin or full.`,
      inputSchema: {
        domain,
        mode: z
          .enum(MTA_STS_MODES)
          .describe(
            "enforce: deliver only over valid TLS to the policy's MX; testing: deliver anyway and report failures (TLS-RPT); none: the policy is withdrawn",
          ),
        max_age: z
          .number()
          .int()
          .min(86_400)
          .max(31_557_600)
          .optional()
          .describe('how long senders keep the policy, in seconds: a day (86400) to a year (31557600); default a week'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const hosting = await hostMtaSts(api, await domainIdOf(api, args.domain), {
          mode: args.mode,
          ...(args.max_age !== undefined ? { max_age: args.max_age } : {}),
        });
        return okResult(mtaStsSummary(hosting), { ...hosting });
      }),
  );

  server.registerTool(
    'stop_mta_sts_policy',
    {
      title: 'Stop hosting an MTA-STS policy',
      description:
        "Stop hosting the domain's MTA-STS policy (DELETE /domains/{id}/mta-sts): it is no longer served at once; its host and certificate are deleted within minutes. Senders that cached an enforce or testing policy keep it for max_age: to withdraw a policy safely, host it with mode none first, wait max_age, remove the policy TXT record, then stop. 404 not_found when none is hosted. Needs domains:write, mail:admin or full.",
      inputSchema: { domain },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const deleted = await stopMtaSts(api, await domainIdOf(api, args.domain));
        return okResult(
          `Stopped hosting the MTA-STS policy of ${deleted.domain_id}: no longer served; its host and certificate are deleted within minutes.`,
          { ...deleted },
        );
      }),
  );
}
