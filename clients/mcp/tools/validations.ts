/**
 * The address validation tool (docs/deliverability.md, "Address validation"): one address with
 * POST /validations, or up to 100 with POST /validations/batch; a verdict per address (valid, risky,
 * invalid), its reasons and a typo suggestion. Nothing is sent. Scopes: emails:send, suppressions:write,
 * account:read, mail:admin or full.
 */
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../../api/client';
import { validationLine, VALIDATIONS_PER_REQUEST, verdictCounts, type Validation } from '../../api/validations';
import { okResult, runTool } from '../result';

export function registerValidationTools(server: McpServer, api: ApiClient): void {
  server.registerTool(
    'validate_email',
    {
      title: 'Validate email addresses',
      description: `Check whether addresses can take mail before sending to them, without sending anything (POST /validations, or POST /validations/batch for a list of up to ${VALIDATIONS_PER_REQUEST}). Use it on an address a person typed or you were given and have not mailed before, or to clean a list before a send; not for addresses already delivered to. Each answer has a verdict: invalid (do not send: bad syntax, a domain without mail hosts, a hard bounce), risky (ask before sending: a probable typo with the corrected address in suggestion, a disposable domain, a role address like info@, a suppression, a DNS failure) or valid; reasons say why and checks give each check. Each address counts against the plan's hourly allowance (429 rate_limited past it). Needs emails:send, suppressions:write, account:read, mail:admin or full.`,
      inputSchema: {
        emails: z
          .union([z.string(), z.array(z.string()).min(1).max(VALIDATIONS_PER_REQUEST)])
          .describe(`an address, or a list of 1-${VALIDATIONS_PER_REQUEST} addresses (answered in order)`),
        tenant: z.string().optional().describe("a tenant (external_id or id) whose suppression list is checked besides the account's"),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const tenant = args.tenant !== undefined ? { tenant: args.tenant } : {};
        if (!Array.isArray(args.emails)) {
          const validation = await api.post<Validation>('/validations', { email: args.emails, ...tenant });
          return okResult(validationLine(validation), { ...validation });
        }
        const answer = await api.post<{ validations: Validation[] }>('/validations/batch', { emails: args.emails, ...tenant });
        const lines = [
          `${verdictCounts(answer.validations)}.`,
          ...answer.validations.map((validation) => `- ${validationLine(validation)}`),
        ];
        return okResult(lines.join('\n'), { ...answer });
      }),
  );
}
