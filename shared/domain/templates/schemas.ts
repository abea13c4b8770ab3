/** Request validation for /templates (the single source of the request types; docs/templates.md). */
import * as z from 'zod';
import { formatMailbox, parseBareSender, parseMailbox } from '../mail/address';
import { CATEGORIES } from '../mail/category';
import { isReservedVariable, VARIABLE_VALUES_BOUNDS, variableValueProblems } from './render';
import { describeFreeForm, freeFormObject, isStorableNumber, STORABLE_NUMBER_RULE } from '../bounds';
import { contentProblems, defaultUnsubscribe, TEMPLATE_ALIAS, TEMPLATE_LIMITS as LIMITS, type StoredTemplateVariable } from './template';

const HTML_DOC = `the HTML body with {{placeholders}} (values HTML-escaped): at most ${LIMITS.htmlBytes / 1024} KB of UTF-8, not empty; html or text is required`;
const TEXT_DOC = `the text body with {{placeholders}}: at most ${LIMITS.textBytes / 1024} KB of UTF-8, not empty; html or text is required`;
const FROM_DOC = `the default sender of sends that give none: an address, \`Name <address>\` or a bare local part (at most ${LIMITS.addressChars} characters)`;
const REPLY_TO_DOC = `default Reply-To: an address or up to ${LIMITS.replyTo} (each at most ${LIMITS.addressChars} characters)`;
const CATEGORY_DOC = 'transactional (default), product or newsletter: the category of its sends unless they give one';
const UNSUBSCRIBE_DOC =
  'managed unsubscribe for its sends; default true for product and newsletter (false is refused for them), false for transactional';
const VARIABLES_DOC = `the declared placeholders, at most ${LIMITS.variables} (used but undeclared ones are accepted, with a render warning)`;

const VARIABLE_KEY = new RegExp(`^[A-Za-z_][A-Za-z0-9_]{0,${LIMITS.variableKeyChars - 1}}$`);

const name = z
  .string({ error: 'name is required (a string)' })
  .trim()
  .min(1, 'name is required')
  .max(LIMITS.nameChars, `name is at most ${LIMITS.nameChars} characters`);

const alias = z
  .string({ error: 'alias is required (a string)' })
  .regex(TEMPLATE_ALIAS, 'alias is 1-64 characters: lower-case letters, digits, _ and -, starting with a letter or digit');

// One line, like the send request's subject (a CR or LF would end the Subject header).
const subject = z
  .string({ error: 'subject is required (a string)' })
  .min(1, 'subject is required')
  .max(LIMITS.subjectChars, `subject is at most ${LIMITS.subjectChars} characters`)
  .refine((value) => !/[\r\n]/.test(value), 'subject must be a single line (no CR or LF)');

/** A body: non-empty, at most `maxBytes` of UTF-8; null (where allowed) means none. */
const body = (field: 'html' | 'text', maxBytes: number) =>
  z
    .string({ error: `${field} must be a string (or null for none)` })
    .min(1, `${field} must not be empty (send null, or leave it out, for none)`)
    .refine(
      (value) => Buffer.byteLength(value, 'utf8') <= maxBytes,
      `${field} is at most ${maxBytes / 1024} KB (${maxBytes} bytes of UTF-8)`,
    );

const html = body('html', LIMITS.htmlBytes);
const text = body('text', LIMITS.textBytes);

/** `Name <a@b.c>`, `a@b.c`, or a bare local part (completed by a tenant's default_from_domain at send), kept formatted. */
const from = z
  .string({ error: 'from must be a string (or null for none)' })
  .max(LIMITS.addressChars, `from is at most ${LIMITS.addressChars} characters`)
  .transform((value, ctx) => {
    const mailbox = parseMailbox(value) ?? parseBareSender(value);
    if (!mailbox) {
      ctx.addIssue({
        code: 'custom',
        message: `"${value}" is not a valid email address (or a bare local part for a tenant with default_from_domain)`,
      });
      return z.NEVER;
    }
    return formatMailbox(mailbox);
  });

const replyToAddress = z
  .string({ error: 'reply_to addresses are strings' })
  .max(LIMITS.addressChars, `reply_to addresses are at most ${LIMITS.addressChars} characters`)
  .transform((value, ctx) => {
    const mailbox = parseMailbox(value);
    if (!mailbox) {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not a valid email address` });
      return z.NEVER;
    }
    return formatMailbox(mailbox);
  });

/** One address or an array of them, kept as an array. */
const replyTo = z.preprocess(
  (value) => (typeof value === 'string' ? [value] : value),
  z
    .array(replyToAddress, { error: 'reply_to must be an address or an array of addresses' })
    .max(LIMITS.replyTo, `reply_to has at most ${LIMITS.replyTo} addresses`),
);

const category = z.enum(CATEGORIES, { error: `category must be one of ${CATEGORIES.join(', ')}` });

const unsubscribeEnabled = z.boolean({ error: 'unsubscribe_enabled must be true or false' });

const tracking = (field: 'track_opens' | 'track_clicks', what: string) =>
  z
    .boolean({ error: `${field} must be true, false or null` })
    .nullable()
    .describe(
      `${what} of its sends, over the sending domain's setting (a send's own ${field} wins over it); null: the domain decides (docs/tracking.md, "Per message")`,
    );

const variable = z
  .object(
    {
      key: z
        .string({ error: 'key is required (a string)' })
        .regex(VARIABLE_KEY, `key is 1-${LIMITS.variableKeyChars} letters, digits and _, not starting with a digit`)
        .refine((key) => !isReservedVariable(key), {
          message: 'is reserved: {{unsubscribe_url}} is filled with the managed unsubscribe link at send; do not declare it',
        })
        .describe(
          `the placeholder name (\`{{key}}\`): 1-${LIMITS.variableKeyChars} letters, digits and _, not starting with a digit; unique; not unsubscribe_url`,
        ),
      type: z
        .enum(['string', 'number'], { error: 'type must be string or number' })
        .describe("the fallback's type (values given at send are not converted)"),
      fallback_value: z
        .union(
          [z.string().max(LIMITS.fallbackChars, `fallback_value is at most ${LIMITS.fallbackChars} characters`), z.number(), z.null()],
          {
            error: 'fallback_value must be a string, a number or null',
          },
        )
        .optional()
        .describe(
          `used when a send gives no value: a string (at most ${LIMITS.fallbackChars} characters) or a number, as type; null or absent for none`,
        ),
    },
    { error: 'each variable is an object {key, type, fallback_value?}' },
  )
  .superRefine((value, ctx) => {
    const fallback = value.fallback_value ?? null;
    if (typeof fallback === 'number' && !isStorableNumber(fallback))
      ctx.addIssue({ code: 'custom', path: ['fallback_value'], message: `fallback_value: ${STORABLE_NUMBER_RULE}` });
    if (fallback !== null && typeof fallback !== value.type) {
      ctx.addIssue({
        code: 'custom',
        path: ['fallback_value'],
        message: `fallback_value must be a ${value.type}, as the variable's type (or null)`,
      });
    }
  })
  .transform((value): StoredTemplateVariable => ({ key: value.key, type: value.type, fallback_value: value.fallback_value ?? null }));

const variables = z
  .array(variable, { error: 'variables must be an array of {key, type, fallback_value?}' })
  .max(LIMITS.variables, `at most ${LIMITS.variables} variables`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((item, index) => {
      if (seen.has(item.key)) ctx.addIssue({ code: 'custom', path: [index, 'key'], message: `"${item.key}" is declared twice` });
      seen.add(item.key);
    });
  });

/** POST /templates. New templates are drafts; unsubscribe_enabled defaults by category (spec rule 10). */
export const createTemplateSchema = z
  .object({
    name: name.describe(`a label for people: 1-${LIMITS.nameChars} characters (trimmed)`),
    alias: alias.describe(
      'its name in paths and sends: 1-64 of a-z 0-9 _ -, starting with a letter or digit; new in the account; cannot be changed',
    ),
    subject: subject.describe(`the subject with {{placeholders}}: 1-${LIMITS.subjectChars} characters, one line`),
    html: html.nullable().optional().describe(`${HTML_DOC} (null: none)`),
    text: text.nullable().optional().describe(`${TEXT_DOC} (null: none)`),
    from: from.nullable().optional().describe(`${FROM_DOC}; null for none`),
    reply_to: replyTo.optional().describe(REPLY_TO_DOC),
    category: category.optional().describe(CATEGORY_DOC),
    unsubscribe_enabled: unsubscribeEnabled.optional().describe(UNSUBSCRIBE_DOC),
    track_opens: tracking('track_opens', 'the open pixel').optional(),
    track_clicks: tracking('track_clicks', 'link tracking').optional(),
    variables: variables.optional().describe(VARIABLES_DOC),
  })
  // Unknown fields are refused, not dropped: a misspelt `variables` or `unsubscribe_enabled` would
  // otherwise change the template silently.
  .strict()
  // The whole-draft rules (a body; spec rule 10) are the ones PATCH re-checks on the merged draft.
  .superRefine((value, ctx) => {
    const category = value.category ?? 'transactional';
    const problems = contentProblems({
      html: value.html ?? null,
      text: value.text ?? null,
      category,
      unsubscribe_enabled: value.unsubscribe_enabled ?? defaultUnsubscribe(category),
    });
    for (const problem of problems) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
export type CreateTemplateInput = z.output<typeof createTemplateSchema>;

/** PATCH /templates/{alias}: any of the create fields but alias (null clears html, text or from). */
export const updateTemplateSchema = z
  .object({
    alias: z
      .never({ error: 'alias cannot be changed: create a template with the new alias (and delete this one)' })
      .optional()
      .describe('refused: an alias cannot be changed (create a template with the new alias)'),
    name: name.optional().describe(`a label for people: 1-${LIMITS.nameChars} characters (trimmed)`),
    subject: subject.optional().describe(`the subject with {{placeholders}}: 1-${LIMITS.subjectChars} characters, one line`),
    html: html.nullable().optional().describe(`${HTML_DOC}; null clears it`),
    text: text.nullable().optional().describe(`${TEXT_DOC}; null clears it`),
    from: from.nullable().optional().describe(`${FROM_DOC}; null clears it`),
    reply_to: replyTo.optional().describe(`${REPLY_TO_DOC}; replaces the list`),
    category: category.optional().describe(`${CATEGORY_DOC}; without unsubscribe_enabled, unsubscribe takes the new category's default`),
    unsubscribe_enabled: unsubscribeEnabled.optional().describe(UNSUBSCRIBE_DOC),
    track_opens: tracking('track_opens', 'the open pixel').optional(),
    track_clicks: tracking('track_clicks', 'link tracking').optional(),
    variables: variables.optional().describe(`${VARIABLES_DOC}; replaces the list`),
  })
  .strict()
  .refine((value) => Object.values(value).some((field) => field !== undefined), {
    message:
      'send at least one of name, subject, html, text, from, reply_to, category, unsubscribe_enabled, track_opens, track_clicks, variables',
  });
export type UpdateTemplateInput = z.output<typeof updateTemplateSchema>;

/** `?limit&cursor` of GET /templates (newest first). */
export const listTemplatesQuerySchema = z.object({
  limit: z.coerce.number().int('limit must be an integer').min(1, 'limit must be 1-100').max(100, 'limit must be 1-100').default(25),
  cursor: z.string().max(2048).optional(),
});
export type ListTemplatesQuery = z.output<typeof listTemplatesQuerySchema>;

/** POST /templates/{alias}/render body: values for the placeholders (strings, numbers, booleans or null). */
export const renderTemplateSchema = z
  .object({
    variables: freeFormObject('variables', VARIABLE_VALUES_BOUNDS)
      .optional()
      .describe(
        `values of the placeholders: strings, numbers, booleans or null (an object or array is a 400); absent renders without values; ${describeFreeForm(VARIABLE_VALUES_BOUNDS)}`,
      ),
  })
  .superRefine((value, ctx) => {
    for (const problem of variableValueProblems(value.variables)) {
      ctx.addIssue({ code: 'custom', path: problem.key === null ? ['variables'] : ['variables', problem.key], message: problem.message });
    }
  });
export type RenderTemplateInput = z.output<typeof renderTemplateSchema>;

/** `?version=draft` (default) or `published` of POST /templates/{alias}/render. */
export const renderTemplateQuerySchema = z.object({
  version: z
    .enum(['draft', 'published'], { error: 'version must be draft or published' })
    .default('draft')
    .describe('draft (default) or published (409 conflict when never published)'),
});
export type RenderTemplateQuery = z.output<typeof renderTemplateQuerySchema>;
