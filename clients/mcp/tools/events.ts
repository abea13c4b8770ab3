/**
 * The custom-event tool (docs/automations.md, "Events"): POST /events tells the service something happened
 * to a user; active automations with that trigger start, waiting runs resume or are cancelled.
 * Scopes: emails:send, mail:admin or full.
 */
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../../api/client';
import { okResult, runTool } from '../result';
import { idempotencyHeaders, idempotencyKeyField } from './send-fields';

interface EventAnswer {
  event: { id: string; name: string };
  matched_automations?: number;
  resumed_runs?: number;
  cancelled_runs?: number;
}

export function registerEventTools(server: McpServer, api: ApiClient): void {
  server.registerTool(
    'send_event',
    {
      title: 'Send a custom event',
      description:
        'Record that something happened to one of your users (POST /events), e.g. "user.created": automations triggered by that name start a run for the user (which may send them emails), and runs waiting for it resume or are cancelled. Returns the event and how many automations and runs it matched. Needs emails:send, mail:admin or full.',
      inputSchema: {
        name: z.string().min(1).describe('the event name, 1-100 of letters, digits, _ . : - (e.g. user.created)'),
        user_id: z.string().optional().describe('who the event is about (runs are per user: user_id, else email)'),
        email: z.string().optional().describe("the user's address"),
        data: z.record(z.string(), z.unknown()).optional().describe('a JSON object automations read ({{event.data.<key>}}), at most 32 KB'),
        idempotency_key: idempotencyKeyField,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const body = { name: args.name, user_id: args.user_id, email: args.email, data: args.data };
        const answer = await api.post<EventAnswer>('/events', body, idempotencyHeaders(args.idempotency_key));
        return okResult(
          `Event ${answer.event.id} (${answer.event.name}) accepted: ${answer.matched_automations ?? 0} automations started, ${answer.resumed_runs ?? 0} runs resumed, ${answer.cancelled_runs ?? 0} cancelled.`,
          { ...answer },
        );
      }),
  );
}
