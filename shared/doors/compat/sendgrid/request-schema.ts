/**
 * The body of SendGrid's `POST /v3/mail/send` (v3 Mail Send), as a zod schema of SendGrid's own field
 * names: what the official `@sendgrid/mail` SDK posts (its Mail and Personalization classes' toJSON). Only
 * the shape is checked here (types, required fields, SendGrid's own limits); the addresses, headers,
 * attachments and every sending rule are the send core's (shared/domain/emails/send-request.ts), reached
 * through ./to-send-requests.ts. Issue paths are SendGrid's field names (`personalizations.0.to`), so a
 * failure answers SendGrid's error body as it is (./errors.ts). Unknown fields are dropped, as SendGrid
 * ignores them.
 */
import * as z from 'zod';

/** SendGrid's own cap on personalizations (its docs); ours is lower (MAX_BATCH: ./to-send-requests.ts). */
export const SENDGRID_MAX_PERSONALIZATIONS = 1000;
/** SendGrid's cap on categories per request. */
export const SENDGRID_MAX_CATEGORIES = 10;

const oneLine = (value: string) => !/[\r\n]/.test(value);

/** `{email, name?}`: SendGrid's email object. The address itself is checked by the send core. */
export const emailObject = z.object(
  {
    email: z
      .string({ error: 'The email parameter is required and must be a string.' })
      .min(1, 'The email parameter is required and must be a string.'),
    name: z
      .string({ error: 'The name parameter must be a string.' })
      .refine(oneLine, 'The name must be one line (no CR or LF).')
      .optional(),
  },
  { error: 'Must be an email object {"email": "...", "name": "..."}.' },
);
export type EmailObject = z.output<typeof emailObject>;

const stringRecord = (what: string) =>
  z.record(z.string(), z.string({ error: `${what} values must be strings.` }), { error: `${what} must be an object of strings.` });

const enableFlag = (what: string) => z.boolean({ error: `The ${what} enable param should be a boolean value.` });
const setting = (what: string) => z.object({ enable: enableFlag(what).optional() }).loose();

export const personalizationSchema = z.object({
  to: z
    .array(emailObject, {
      error:
        'The to array is required for all personalization objects, and must have at least one email object with a valid email address.',
    })
    .min(
      1,
      'The to array is required for all personalization objects, and must have at least one email object with a valid email address.',
    ),
  cc: z.array(emailObject, { error: 'The cc field must be an array of email objects.' }).optional(),
  bcc: z.array(emailObject, { error: 'The bcc field must be an array of email objects.' }).optional(),
  from: emailObject.optional(),
  subject: z.string({ error: 'The subject must be a string.' }).optional(),
  headers: stringRecord('Headers').optional(),
  substitutions: stringRecord('Substitutions').optional(),
  dynamic_template_data: z.record(z.string(), z.unknown(), { error: 'dynamic_template_data must be an object.' }).optional(),
  custom_args: stringRecord('Custom args').optional(),
  send_at: z
    .number({ error: 'send_at must be a unix timestamp (an integer number of seconds).' })
    .int('send_at must be a unix timestamp (an integer number of seconds).')
    .nonnegative('send_at must be a unix timestamp (an integer number of seconds).')
    .optional(),
});
export type SendgridPersonalization = z.output<typeof personalizationSchema>;

export const contentSchema = z.object({
  type: z.string({ error: 'The content type is required and must be a string (text/plain or text/html).' }),
  value: z
    .string({ error: 'The content value must be a string at least one character in length.' })
    .min(1, 'The content value must be a string at least one character in length.'),
});

/**
 * `contentId` is read as `content_id`: the SDK snake-cases the request's keys but not those of the
 * attachment objects it is given, so `{contentId}` (the SDK's own TypeScript name) reaches the API as is.
 */
function contentIdAlias(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('contentId' in value)) return value;
  const { contentId, ...rest } = value as Record<string, unknown>;
  return 'content_id' in rest ? rest : { ...rest, content_id: contentId };
}

const attachmentObject = z.object({
  content: z
    .string({ error: 'The attachment content is required and must be a base64 encoded string.' })
    .min(1, 'The attachment content is required and must be a base64 encoded string.'),
  filename: z
    .string({ error: 'The attachment filename is required and must be a string.' })
    .min(1, 'The attachment filename is required and must be a string.'),
  type: z.string({ error: 'The attachment type must be a string (a MIME type).' }).optional(),
  disposition: z.enum(['inline', 'attachment'], { error: 'The attachment disposition must be inline or attachment.' }).optional(),
  content_id: z.string({ error: 'The attachment content_id must be a string.' }).optional(),
});
export const attachmentSchema = z.preprocess(contentIdAlias, attachmentObject);
export type SendgridAttachment = z.output<typeof attachmentObject>;

const mailSettingsSchema = z
  .object({
    sandbox_mode: setting('sandbox mode').optional(),
    bypass_list_management: setting('bypass_list_management').optional(),
    bypass_spam_management: setting('bypass_spam_management').optional(),
    bypass_bounce_management: setting('bypass_bounce_management').optional(),
    bypass_unsubscribe_management: setting('bypass_unsubscribe_management').optional(),
    footer: z
      .object({
        enable: enableFlag('footer').optional(),
        text: z.string({ error: 'The footer text must be a string.' }).optional(),
        html: z.string({ error: 'The footer html must be a string.' }).optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

const trackingSettingsSchema = z
  .object({
    click_tracking: setting('click tracking').optional(),
    open_tracking: setting('open tracking').optional(),
    subscription_tracking: setting('subscription tracking').optional(),
    ganalytics: setting('ganalytics').optional(),
  })
  .loose();

export const mailSendSchema = z.object(
  {
    personalizations: z
      .array(personalizationSchema, { error: 'The personalizations field is required and must have at least one personalization.' })
      .min(1, 'The personalizations field is required and must have at least one personalization.')
      .max(SENDGRID_MAX_PERSONALIZATIONS, `The personalizations field can have at most ${SENDGRID_MAX_PERSONALIZATIONS} personalizations.`),
    from: emailObject.optional(),
    reply_to: emailObject.optional(),
    reply_to_list: z.array(emailObject, { error: 'reply_to_list must be an array of email objects.' }).optional(),
    subject: z.string({ error: 'The subject must be a string.' }).optional(),
    content: z.array(contentSchema, { error: 'The content field must be an array of {type, value}.' }).optional(),
    attachments: z.array(attachmentSchema, { error: 'The attachments field must be an array of attachment objects.' }).optional(),
    template_id: z.string({ error: 'The template_id must be a string.' }).min(1, 'The template_id must be a valid template ID.').optional(),
    sections: z.record(z.string(), z.unknown(), { error: 'sections must be an object.' }).optional(),
    headers: stringRecord('Headers').optional(),
    categories: z
      .array(z.string({ error: 'Categories must be strings.' }).max(255, 'A category may be at most 255 characters.'), {
        error: 'categories must be an array of strings.',
      })
      .max(SENDGRID_MAX_CATEGORIES, `Too many categories: at most ${SENDGRID_MAX_CATEGORIES}.`)
      .optional(),
    custom_args: stringRecord('Custom args').optional(),
    send_at: z
      .number({ error: 'send_at must be a unix timestamp (an integer number of seconds).' })
      .int('send_at must be a unix timestamp (an integer number of seconds).')
      .nonnegative('send_at must be a unix timestamp (an integer number of seconds).')
      .optional(),
    batch_id: z.string({ error: 'batch_id must be a string.' }).optional(),
    asm: z
      .object({
        group_id: z
          .number({ error: 'The asm group_id is required and must be an integer.' })
          .int('The asm group_id is required and must be an integer.'),
        groups_to_display: z
          .array(z.number().int(), { error: 'asm groups_to_display must be an array of integers.' })
          .max(25, 'asm groups_to_display may list at most 25 groups.')
          .optional(),
      })
      .optional(),
    ip_pool_name: z.string({ error: 'ip_pool_name must be a string.' }).optional(),
    mail_settings: mailSettingsSchema.optional(),
    tracking_settings: trackingSettingsSchema.optional(),
  },
  { error: 'The request body must be a JSON object.' },
);
export type SendgridMailSend = z.output<typeof mailSendSchema>;
