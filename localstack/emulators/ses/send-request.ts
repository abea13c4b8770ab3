/**
 * SendEmail's request, read in SES's order: the content (exactly one of Simple, Raw, Template; the emulator
 * takes no Template), the addresses and tags (./address-encoding.ts: ASCII only), the configuration set
 * (404 when unknown, SendingPausedException when its sending is off), then the message's bytes: Raw's
 * as given, Simple's composed (./mime.ts) with SES's Message-ID (./message-id.ts); at most 40 MB
 * (MessageRejected) and within SES's content rules (./content-rules.ts).
 */
import { checkAsciiAddresses } from './address-encoding';
import { requireConfigSet } from './config-sets';
import { checkContentRules } from './content-rules';
import { SesError, badRequest } from './errors';
import { MAX_MESSAGE_BYTES } from './message-limits';
import { sesMessageIdHeader } from './message-id';
import { composeSimple, type SimpleAttachment } from './mime';
import type { SesStore } from './store';
import type { ConfigurationSet } from './types';
import { asObject, decodeBase64, isObject, optArray, optObject, optString, optStringArray, reqString, type Json } from './validate';

const EMAIL_TAG_PART = /^[A-Za-z0-9_-]{1,255}$/;

export interface SendRequest {
  content: Json;
  kind: 'Simple' | 'Raw';
  fromEmailAddress: string | undefined;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  emailTags: Record<string, string>;
}

export function parseSendRequest(body: Json): SendRequest {
  const content = asObject(body.Content, 'Content');
  const kinds = (['Simple', 'Raw', 'Template'] as const).filter((k) => content[k] !== undefined && content[k] !== null);
  if (kinds.length !== 1) throw badRequest('Content must contain exactly one of Simple, Raw or Template.');
  const kind = kinds[0]!;
  if (kind === 'Template') {
    throw badRequest(
      'Content.Template is not supported by the local SES emulator: render the template and send Content.Simple or Content.Raw.',
    );
  }
  const fromEmailAddress = optString(body.FromEmailAddress, 'FromEmailAddress') || undefined;
  const destination = optObject(body.Destination, 'Destination');
  const to = optStringArray(destination?.ToAddresses, 'Destination.ToAddresses');
  const cc = optStringArray(destination?.CcAddresses, 'Destination.CcAddresses');
  const bcc = optStringArray(destination?.BccAddresses, 'Destination.BccAddresses');
  const replyTo = optStringArray(body.ReplyToAddresses, 'ReplyToAddresses');
  const emailTags = parseEmailTags(body.EmailTags);
  checkAsciiAddresses({ fromEmailAddress, to, cc, bcc, replyTo });
  return { content, kind, fromEmailAddress, to, cc, bcc, replyTo, emailTags };
}

/** The configuration set a send names, if any; it must exist and have sending on. */
export function sendingConfigSet(store: SesStore, body: Json): ConfigurationSet | undefined {
  const setName = optString(body.ConfigurationSetName, 'ConfigurationSetName') || undefined;
  if (!setName) return undefined;
  const configSet = requireConfigSet(store, setName);
  const sending = configSet.options.SendingOptions;
  if (isObject(sending) && sending.SendingEnabled === false) {
    throw new SesError('SendingPausedException', `Sending is disabled for configuration set <${configSet.name}>.`);
  }
  return configSet;
}

/** The message SES accepts: Raw's bytes, or Simple's composed; checked for size and content. */
export async function messageBytes(send: SendRequest, env: { id: string; now: Date; region: string }): Promise<Buffer> {
  let raw: Buffer;
  if (send.kind === 'Raw') {
    const rawContent = asObject(send.content.Raw, 'Content.Raw');
    raw = decodeBase64(rawContent.Data, 'Content.Raw.Data');
    if (raw.length === 0) throw badRequest('Content.Raw.Data is empty.');
  } else {
    if (!send.fromEmailAddress) throw badRequest('FromEmailAddress is required when sending Content.Simple.');
    raw = await composeSimpleContent(asObject(send.content.Simple, 'Content.Simple'), send.fromEmailAddress, send, env);
  }
  if (raw.length > MAX_MESSAGE_BYTES) throw new SesError('MessageRejected', 'Message length is more than 40 MB.');
  await checkContentRules(raw);
  return raw;
}

async function composeSimpleContent(
  simple: Json,
  from: string,
  send: SendRequest,
  env: { id: string; now: Date; region: string },
): Promise<Buffer> {
  const subject = asObject(simple.Subject, 'Content.Simple.Subject');
  const bodyObj = asObject(simple.Body, 'Content.Simple.Body');
  const text = optObject(bodyObj.Text, 'Content.Simple.Body.Text');
  const html = optObject(bodyObj.Html, 'Content.Simple.Body.Html');
  if (!text && !html) throw badRequest('Content.Simple.Body must have Text or Html.');
  const headers = optArray(simple.Headers, 'Content.Simple.Headers').map((h, i) => {
    const o = asObject(h, `Content.Simple.Headers[${i}]`);
    return {
      name: reqString(o.Name, `Content.Simple.Headers[${i}].Name`),
      value: optString(o.Value, `Content.Simple.Headers[${i}].Value`) ?? '',
    };
  });
  const attachments = simpleAttachments(simple);
  return composeSimple({
    from,
    to: send.to,
    cc: send.cc,
    replyTo: send.replyTo,
    subject: optString(subject.Data, 'Content.Simple.Subject.Data') ?? '',
    text: text ? (optString(text.Data, 'Content.Simple.Body.Text.Data') ?? '') : undefined,
    html: html ? (optString(html.Data, 'Content.Simple.Body.Html.Data') ?? '') : undefined,
    headers,
    attachments,
    messageId: sesMessageIdHeader(env.id, env.region),
    date: env.now,
  });
}

function simpleAttachments(simple: Json): SimpleAttachment[] {
  return optArray(simple.Attachments, 'Content.Simple.Attachments').map((a, i) => {
    const o = asObject(a, `Content.Simple.Attachments[${i}]`);
    const field = (k: string): string | undefined => optString(o[k], `Content.Simple.Attachments[${i}].${k}`);
    return {
      content: decodeBase64(o.RawContent, `Content.Simple.Attachments[${i}].RawContent`),
      filename: reqString(o.FileName, `Content.Simple.Attachments[${i}].FileName`),
      contentType: field('ContentType'),
      contentDisposition: field('ContentDisposition')?.toLowerCase(),
      contentId: field('ContentId'),
      contentDescription: field('ContentDescription'),
      contentTransferEncoding: field('ContentTransferEncoding'),
    };
  });
}

/** EmailTags as a map; names and values are ASCII letters, digits, `_` and `-` (as in SES). */
function parseEmailTags(value: unknown): Record<string, string> {
  const tags: Record<string, string> = {};
  optArray(value, 'EmailTags').forEach((t, i) => {
    const o = asObject(t, `EmailTags[${i}]`);
    const name = reqString(o.Name, `EmailTags[${i}].Name`);
    const tagValue = reqString(o.Value, `EmailTags[${i}].Value`);
    if (!EMAIL_TAG_PART.test(name))
      throw badRequest(`Invalid tag name <${name}>: only ASCII letters, numbers, underscores and dashes are allowed.`);
    if (!EMAIL_TAG_PART.test(tagValue))
      throw badRequest(`Invalid tag value <${tagValue}>: only ASCII letters, numbers, underscores and dashes are allowed.`);
    tags[name] = tagValue;
  });
  return tags;
}
