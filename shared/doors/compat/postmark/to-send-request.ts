/**
 * A Postmark message -> our send request (the body POST /emails takes, before sendRequestSchema parses it).
 * Pure: the door parses the result with the send request schema (one message) or hands it to the batch
 * core (which parses each item), so every rule of ours (addresses, 50 recipients, sizes, attachments,
 * headers, tags) is checked once, by the core's own schema; only what Postmark says differently is here:
 *
 *  - `From` -> from; `To`, `Cc`, `Bcc`, `ReplyTo` (comma-separated strings) -> lists;
 *  - `Subject`, `HtmlBody`, `TextBody` -> subject, html, text (an empty body is no body);
 *  - `Headers` [{Name, Value}] -> headers (a name given twice is a 300: one value would be dropped);
 *  - `Tag` -> the tag `{name: "tag", value: Tag}`; `Metadata` {k: v} -> one tag `{name: k, value: v}` each
 *    (our emails keep tags, not metadata: they are on the record, the list filter and every webhook), by
 *    the doors' one rule (../provider-tags.ts: characters a tag cannot hold become `_`); more than 10 in
 *    all is a 300 (a dropped one would be lost silently);
 *  - `Attachments` [{Name, Content, ContentType, ContentID}] -> attachments (a `cid:` prefix of ContentID
 *    dropped; ContentLength and Disposition ignored: the size is the content's, and a part is inline
 *    exactly when it has a ContentID);
 *  - `MessageStream`: `outbound` -> category transactional, `broadcast` -> product, absent -> ours by
 *    default (transactional, or the template's); another stream is Postmark's 1235;
 *  - `TemplateAlias`/`TemplateId` + `TemplateModel` -> template {id: our alias, variables: flattened}
 *    (./template-alias.ts, ./template-model.ts);
 *  - `TrackOpens` -> track_opens; `TrackLinks` -> track_clicks (`None` false; `HtmlAndText`, `HtmlOnly`, `TextOnly`
 *    true: the links of both bodies are tracked here); `InlineCss` is ignored (docs/compat.md, "Postmark").
 */
import { labelTags, MAX_TAGS, pairTags, tagsOverLimit, type Tag } from '../provider-tags';
import { splitAddressList } from '#shared/domain/mail/address-list';
import { POSTMARK_CODES, PostmarkFailure } from './errors';
import type { PostmarkAttachment, PostmarkCommonFields, PostmarkMessage } from './schema';
import { flattenTemplateModel, type FlatValue } from './template-model';

/** Postmark's two default streams and our categories. */
export const STREAM_CATEGORIES: Readonly<Record<string, 'transactional' | 'product'>> = {
  outbound: 'transactional',
  broadcast: 'product',
};

/** The tag name a Postmark `Tag` is kept under. */
export const TAG_NAME = 'tag';

/** The template part of a templated message, once its alias is known. */
export interface TemplateContent {
  alias: string;
  model: Readonly<Record<string, unknown>> | null | undefined;
}

const invalid = (message: string) => new PostmarkFailure(POSTMARK_CODES.invalidRequest, message);

function addressList(value: string | null | undefined): string[] | undefined {
  if (value === null || value === undefined) return undefined;
  const list = splitAddressList(value);
  return list.length ? list : undefined;
}

/** `outbound` / `broadcast` -> our category; absent -> undefined; another stream -> 1235. */
export function categoryOfStream(stream: string | null | undefined): 'transactional' | 'product' | undefined {
  if (stream === null || stream === undefined || stream.trim() === '') return undefined;
  const category = STREAM_CATEGORIES[stream.trim().toLowerCase()];
  if (!category) {
    throw new PostmarkFailure(
      POSTMARK_CODES.messageStreamNotFound,
      `The stream provided: '${stream}' does not exist on this server. Use 'outbound' (transactional) or 'broadcast' (product email).`,
    );
  }
  return category;
}

function headersOf(headers: PostmarkCommonFields['Headers']): Record<string, string> | undefined {
  if (!headers?.length) return undefined;
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const { Name, Value } of headers) {
    const name = Name.trim();
    if (seen.has(name.toLowerCase())) throw invalid(`Headers: the header '${name}' is given twice; give each header once.`);
    seen.add(name.toLowerCase());
    out[name] = Value;
  }
  return out;
}

/** Tag and Metadata as our tags (../provider-tags.ts); more than MAX_TAGS is a 300. */
export function tagsOf(tag: string | null | undefined, metadata: Readonly<Record<string, string>> | null | undefined): Tag[] | undefined {
  const tags = [...labelTags(TAG_NAME, tag ? [tag] : []), ...pairTags(metadata ?? {})];
  if (tagsOverLimit(tags) > 0)
    throw invalid(`Tag and Metadata give ${tags.length} tags; at most ${MAX_TAGS} are kept per email (Tag counts as one).`);
  return tags.length ? tags : undefined;
}

function attachmentOf(attachment: PostmarkAttachment): Record<string, string> {
  const contentId = attachment.ContentID?.trim().replace(/^cid:/i, '');
  return {
    filename: attachment.Name,
    data: attachment.Content,
    ...(attachment.ContentType ? { content_type: attachment.ContentType } : {}),
    ...(contentId ? { content_id: contentId } : {}),
  };
}

const nonEmpty = (value: string | null | undefined): string | undefined =>
  value === null || value === undefined || value === '' ? undefined : value;

/** Everything but the content (from, recipients, headers, tags, attachments, category). */
function envelopeOf(message: PostmarkCommonFields): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    if (value !== undefined) request[key] = value;
  };
  put('from', nonEmpty(message.From));
  // `to` is always there: an absent or empty To is our "at least one recipient" (a 300).
  request.to = addressList(message.To) ?? [];
  put('cc', addressList(message.Cc));
  put('bcc', addressList(message.Bcc));
  put('reply_to', addressList(message.ReplyTo));
  put('headers', headersOf(message.Headers));
  put('tags', tagsOf(message.Tag, message.Metadata));
  put('attachments', message.Attachments?.length ? message.Attachments.map(attachmentOf) : undefined);
  put('category', categoryOfStream(message.MessageStream));
  put('track_opens', message.TrackOpens ?? undefined);
  put('track_clicks', trackLinksOf(message.TrackLinks));
  return request;
}

/** Postmark's `TrackLinks` values: `None` turns click tracking off, the others on (both bodies' links here). */
const TRACK_LINKS: Readonly<Record<string, boolean>> = { None: false, HtmlAndText: true, HtmlOnly: true, TextOnly: true };

function trackLinksOf(value: string | null | undefined): boolean | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const track = TRACK_LINKS[value];
  if (track === undefined)
    throw new PostmarkFailure(
      POSTMARK_CODES.invalidRequest,
      `Invalid TrackLinks value '${value}': use None, HtmlAndText, HtmlOnly or TextOnly.`,
    );
  return track;
}

/** A Message (POST /email, /email/batch) as our send request. */
export function messageToSendRequest(message: PostmarkMessage): Record<string, unknown> {
  const request = envelopeOf(message);
  const content = { subject: message.Subject ?? undefined, html: nonEmpty(message.HtmlBody), text: nonEmpty(message.TextBody) };
  for (const [key, value] of Object.entries(content)) if (value !== undefined) request[key] = value;
  return request;
}

/** A TemplatedMessage (POST /email/withTemplate, /email/batchWithTemplates) as our send request, its alias resolved. */
export function templatedToSendRequest(message: PostmarkCommonFields, template: TemplateContent): Record<string, unknown> {
  const variables: Record<string, FlatValue> = flattenTemplateModel(template.model ?? {});
  return { ...envelopeOf(message), template: { id: template.alias, variables } };
}
