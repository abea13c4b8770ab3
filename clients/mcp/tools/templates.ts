/**
 * The template tools (docs/templates.md): list templates and render one as a preview (nothing is sent).
 * Scopes: templates:write, account:read, mail:admin or full. Sending with a template is send_email's `template`.
 */
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../../api/client';
import { okResult, runTool } from '../result';
import { pageFields } from './emails';
import { segment } from './path';

interface TemplateSummary {
  alias?: string;
  name?: string;
  published_version?: number | null;
  [field: string]: unknown;
}

interface Rendered {
  subject?: string | null;
  html?: string | null;
  text?: string | null;
  warnings?: { code: string; message: string }[];
}

export function registerTemplateTools(server: McpServer, api: ApiClient): void {
  server.registerTool(
    'list_templates',
    {
      title: 'List templates',
      description:
        "List the account's email templates, newest first (GET /templates), without their bodies. Send one with send_email's template {id: alias, variables}. Needs templates:write, account:read, mail:admin or full.",
      inputSchema: pageFields,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const page = await api.get<{ templates: TemplateSummary[]; has_more: boolean; next_cursor: string | null }>('/templates', {
          limit: args.limit,
          cursor: args.cursor,
        });
        const lines = [`${page.templates.length} templates${page.has_more ? ` (more: cursor ${page.next_cursor})` : ''}.`];
        for (const template of page.templates)
          lines.push(
            `- ${template.alias}${template.name ? ` "${template.name}"` : ''}${template.published_version ? ` (published v${template.published_version})` : ' (draft only)'}`,
          );
        return okResult(lines.join('\n'), { ...page });
      }),
  );

  server.registerTool(
    'render_template',
    {
      title: 'Render a template (preview)',
      description:
        'Render a template with values (POST /templates/{alias}/render) and return the subject, html and text a send would contain, with warnings (missing_variable, unknown_variable, ...). Nothing is sent or stored. Renders the draft unless version is "published". Needs templates:write, account:read, mail:admin or full.',
      inputSchema: {
        alias: z.string().min(1).describe('the template alias'),
        variables: z.record(z.string(), z.unknown()).optional().describe('values of the placeholders: strings, numbers, booleans or null'),
        version: z.enum(['published']).optional().describe('"published" renders the published version instead of the draft'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const answer = await api.request<Rendered>('POST', `/templates/${segment(args.alias)}/render`, {
          query: { version: args.version },
          body: args.variables !== undefined ? { variables: args.variables } : {},
        });
        const warnings = answer.warnings ?? [];
        const lines = [`Subject: ${answer.subject ?? ''}`, ...(answer.text ? ['', answer.text] : [])];
        if (warnings.length > 0)
          lines.push('', `${warnings.length} warnings:`, ...warnings.map((warning) => `- ${warning.code}: ${warning.message}`));
        return okResult(lines.join('\n'), { ...answer });
      }),
  );
}
