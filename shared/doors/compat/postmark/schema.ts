/**
 * Postmark's request bodies as its API reference and the official `postmark` SDK (v5) write them:
 * `POST /email` (a Message), `POST /email/withTemplate` (a TemplatedMessage), `POST /email/batch` (an
 * array of Messages) and `POST /email/batchWithTemplates` (`{"Messages": [TemplatedMessage, ...]}`).
 * Only the shapes are checked here (types, and Postmark's own rules such as one Tag); what the values may
 * be (addresses, sizes, limits) is our send request's business, checked once the request is mapped
 * (./to-send-request.ts). Optional fields may be null (the SDK's classes leave them null). Fields Postmark
 * does not have are ignored, as Postmark ignores them.
 */
import * as z from 'zod';

const text = (field: string) => z.string({ error: `${field} must be a string` }).nullish();

const header = z.object({
  Name: z.string({ error: 'Headers[].Name must be a string' }),
  Value: z.string({ error: 'Headers[].Value must be a string' }),
});

const attachment = z.object({
  Name: z.string({ error: 'Attachments[].Name (the file name) is required' }),
  Content: z.string({ error: 'Attachments[].Content (the file as base64) is required' }),
  ContentType: text('Attachments[].ContentType'),
  ContentID: text('Attachments[].ContentID'),
  /** Informative only (the size comes from Content). */
  ContentLength: z.number().nullish(),
  /** inline or attachment: ours is inline exactly when the part has a ContentID. */
  Disposition: text('Attachments[].Disposition'),
});

/** Metadata values: Postmark keeps strings; numbers and booleans are taken as their text. */
const metadataValue = z.union([z.string(), z.number(), z.boolean()], { error: 'Metadata values must be strings' }).transform(String);

/** What a Message and a TemplatedMessage share. */
const common = {
  From: text('From'),
  To: text('To'),
  Cc: text('Cc'),
  Bcc: text('Bcc'),
  ReplyTo: text('ReplyTo'),
  Tag: text('Tag'),
  Headers: z.array(header, { error: 'Headers must be an array of {Name, Value}' }).nullish(),
  Metadata: z.record(z.string(), metadataValue, { error: 'Metadata must be an object of string values' }).nullish(),
  TrackOpens: z.boolean({ error: 'TrackOpens must be a boolean' }).nullish(),
  TrackLinks: text('TrackLinks'),
  Attachments: z.array(attachment, { error: 'Attachments must be an array of {Name, Content, ContentType, ContentID}' }).nullish(),
  MessageStream: text('MessageStream'),
};

export const postmarkMessageSchema = z.object(
  {
    ...common,
    Subject: text('Subject'),
    HtmlBody: text('HtmlBody'),
    TextBody: text('TextBody'),
  },
  { error: 'A message must be a JSON object' },
);

export const postmarkTemplatedMessageSchema = z.object(
  {
    ...common,
    TemplateId: z.union([z.number().int(), z.string()], { error: 'TemplateId must be a number' }).nullish(),
    TemplateAlias: text('TemplateAlias'),
    TemplateModel: z.record(z.string(), z.unknown(), { error: 'TemplateModel must be a JSON object' }).nullish(),
    /** Postmark inlines the template's <style> into its HTML; our templates are sent as stored. */
    InlineCss: z.boolean({ error: 'InlineCss must be a boolean' }).nullish(),
  },
  { error: 'A templated message must be a JSON object' },
);

export type PostmarkMessage = z.output<typeof postmarkMessageSchema>;
export type PostmarkTemplatedMessage = z.output<typeof postmarkTemplatedMessageSchema>;
/** What both kinds share (the mapping of everything but the content). */
export type PostmarkCommonFields = Pick<PostmarkMessage, keyof typeof common>;
export type PostmarkAttachment = z.output<typeof attachment>;
