/** Response schemas of the templates group. */
import * as z from 'zod';
import type { toPublicTemplate, toPublicTemplateSummary } from '#shared/domain/templates/template';
import type { TemplatePreview } from '#shared/usecases/templates/templates';
import { CATEGORIES } from '#shared/domain/mail/category';
import { describing, idOf, nullableTimestamp, timestamp } from '#shared/doors/openapi/common-schemas';

const templateFields = {
  object: z.literal('template').describe('always `template`'),
  id: idOf('tpl').describe("the template's id (tpl_...): never changes; a template re-created under the alias gets a new one"),
  alias: z.string().describe('its name in paths and sends: unique in the account, cannot be changed'),
  name: z.string().describe('a label for people'),
  subject: z.string().describe("the draft's subject (with placeholders)"),
  from: z
    .string()
    .nullable()
    .describe('the default sender of sends that give none (an address, `Name <address>` or a bare local part); null for none'),
  reply_to: z.array(z.string()).describe('default Reply-To addresses ([] for none)'),
  category: z.enum(CATEGORIES).describe('transactional (default), product or newsletter: the category of its sends unless they give one'),
  unsubscribe_enabled: z.boolean().describe('managed unsubscribe for its sends; always true for product and newsletter'),
  track_opens: z
    .boolean()
    .nullable()
    .describe(
      "the open pixel of its sends, over the sending domain's open_tracking (a send's own track_opens wins); null: the domain decides",
    ),
  track_clicks: z
    .boolean()
    .nullable()
    .describe(
      "link tracking of its sends, over the sending domain's click_tracking (a send's own track_clicks wins); null: the domain decides",
    ),
  variables: z
    .array(
      z.strictObject({
        key: z.string().describe('the placeholder name (`{{key}}`)'),
        type: z.enum(['string', 'number']).describe('the type of the fallback value (values given at send are not converted)'),
        fallback_value: z.union([z.string(), z.number(), z.null()]).describe('used when a send gives no value; null for none'),
      }),
    )
    .describe('the declared placeholders'),
  status: z.enum(['draft', 'published']).describe('published once a version was published (the draft may have changed since)'),
  published_at: nullableTimestamp.describe('when the current published version was made (ISO 8601); null before the first publish'),
  has_unpublished_changes: z
    .boolean()
    .describe('true when the draft differs from the published version (always true before the first publish)'),
  published_version: z.number().int().nullable().describe('the number of the published version (1, 2, ...); null before the first publish'),
  created_at: timestamp.describe('when the template was created (ISO 8601)'),
  updated_at: timestamp.describe('when the draft last changed or was published (ISO 8601)'),
};

export const templateSchema = describing<ReturnType<typeof toPublicTemplate>>()(
  z.strictObject({
    ...templateFields,
    html: z.string().nullable().describe("the draft's HTML body; null for none (html or text is always set)"),
    text: z.string().nullable().describe("the draft's text body; null for none"),
  }),
);
export const templateSummarySchema = describing<ReturnType<typeof toPublicTemplateSummary>>()(z.strictObject(templateFields));
export const templateEnvelopeSchema = z.strictObject({
  template: templateSchema.describe('the template (its draft and what is published)'),
});

export const templatePreviewSchema = describing<TemplatePreview>()(
  z.strictObject({
    subject: z.string().describe('the rendered subject'),
    html: z.string().nullable().describe('the rendered HTML body (values HTML-escaped); null when the version has none'),
    text: z.string().nullable().describe('the rendered text body; null when the version has none'),
    warnings: z
      .array(
        z.strictObject({
          code: z
            .enum(['missing_variable', 'undeclared_variable', 'unknown_variable', 'unbalanced_braces', 'invalid_placeholder'])
            .describe(
              'missing_variable (no value nor fallback: a 400 at send), undeclared_variable, unknown_variable, unbalanced_braces or invalid_placeholder',
            ),
          message: z.string().describe('the problem, naming the variable and the field'),
          variable: z.string().optional().describe('the variable concerned, where it applies'),
          field: z
            .enum(['subject', 'html', 'text'])
            .optional()
            .describe('where the problem is (first use, for a variable), where it applies'),
        }),
      )
      .describe('problems with the template or the values (never errors; at most 50 per code)'),
  }),
);
