/**
 * The SESv2 operations (configuration sets, event destinations, SendEmail) on parsed JSON
 * bodies. Throws SesError for client errors; knows nothing about HTTP.
 */
import { AccountLimits } from './account-limits';
import type { BounceAftermath } from './bounce-aftermath';
import { checkContentRules } from './content-rules';
import { deliveredBytes } from './delivered-bytes';
import { checkAsciiAddresses } from './address-encoding';
import { SesError, alreadyExists, badRequest, notFound } from './errors';
import { buildMailObject, type CommonHeaders } from './events';
import { sesId } from './ids';
import { checkSuppressionOptions } from './suppression-list';
import { sesMessageIdHeader } from './message-id';
import {
  composeSimple,
  decodeHeaders,
  formatMailbox,
  headerValue,
  isValidAddress,
  parseAddressList,
  parseHeaderFields,
  type SimpleAttachment,
} from './mime';
import { planOutbox } from './outbox';
import type { EventOrder } from './simulator';
import type { EventPublisher } from './publisher';
import type { SesStore } from './store';
import type { TenantService } from './tenants';
import type { IdentityVerifier } from './verification';
import {
  CONFIGURATION_SET_OPTION_KEYS,
  DESTINATION_KINDS,
  MATCHING_EVENT_TYPES,
  type ConfigurationSet,
  type EventDestination,
  type MatchingEventType,
  type OperationResult,
} from './types';
import {
  asObject,
  checkResourceName,
  decodeBase64,
  isObject,
  optArray,
  optBoolean,
  optObject,
  optString,
  optStringArray,
  reqString,
  type Json,
} from './validate';

/** SESv2 limit on envelope recipients per message. */
export const MAX_RECIPIENTS = 50;
/** SESv2 limit on the size of a message (raw MIME). */
export const MAX_MESSAGE_BYTES = 40 * 1024 * 1024;

export interface ServiceOptions {
  region: string;
  accountId: string;
  outcomeDelayMs: number;
  /** The order and spacing of outcome events (simulator.ts EventOrder, outbox.ts earlyLeadMs); default `outcome`. */
  events?: { order: EventOrder; earlyLeadMs: number };
  /** SendEmail's identity checks: a verified sender, and in the sandbox verified recipients (verification.ts). */
  identities: Pick<IdentityVerifier, 'checkSend'>;
  log: (msg: string) => void;
}

/** An operation's response body and, for SendEmail, work to start once the response is sent. */

const EMAIL_TAG_PART = /^[A-Za-z0-9_-]{1,255}$/;

export class SesService {
  constructor(
    private readonly store: SesStore,
    private readonly publisher: EventPublisher,
    private readonly opts: ServiceOptions,
    /** Checks a send naming a tenant (TenantName). */
    private readonly tenants: Pick<TenantService, 'checkSend'>,
    /** The account's quota and switches (account-limits.ts); default: none. */
    private readonly account: Pick<AccountLimits, 'admitSend'> = new AccountLimits(),
    /** Suppression lists and feedback forwarding (bounce-aftermath.ts); default: none. */
    private readonly bounces?: BounceAftermath,
  ) {}

  // ---------------------------------------------------------------- configuration sets

  createConfigurationSet(body: Json): OperationResult {
    const name = checkResourceName(reqString(body.ConfigurationSetName, 'ConfigurationSetName'), 'ConfigurationSetName');
    if (this.store.getConfigSet(name)) throw alreadyExists(`Configuration set <${name}> already exists.`);
    const options: Record<string, unknown> = {};
    for (const key of CONFIGURATION_SET_OPTION_KEYS) {
      const value = body[key];
      if (value === undefined || value === null) continue;
      if (key === 'Tags') optArray(value, key);
      else asObject(value, key);
      options[key] = key === 'SuppressionOptions' ? checkSuppressionOptions(asObject(value, key)) : value;
    }
    this.store.putConfigSet({ name, createdAt: new Date().toISOString(), options, eventDestinations: [] });
    return { body: {} };
  }

  getConfigurationSet(name: string): OperationResult {
    const cs = this.requireConfigSet(name);
    const o = cs.options;
    return {
      body: {
        ConfigurationSetName: cs.name,
        ...(o.TrackingOptions !== undefined ? { TrackingOptions: o.TrackingOptions } : {}),
        DeliveryOptions: o.DeliveryOptions ?? { TlsPolicy: 'OPTIONAL' },
        ReputationOptions: o.ReputationOptions ?? { ReputationMetricsEnabled: false },
        SendingOptions: o.SendingOptions ?? { SendingEnabled: true },
        Tags: o.Tags ?? [],
        ...(o.SuppressionOptions !== undefined ? { SuppressionOptions: o.SuppressionOptions } : {}),
        ...(o.VdmOptions !== undefined ? { VdmOptions: o.VdmOptions } : {}),
        ...(o.ArchivingOptions !== undefined ? { ArchivingOptions: o.ArchivingOptions } : {}),
      },
    };
  }

  /** Both wire forms: GET /v2/email/configuration-sets?NextToken&PageSize and POST /v2/email/list-configuration-sets. */
  listConfigurationSets(nextToken: string | undefined, pageSize: number | undefined): OperationResult {
    const names = this.store.listConfigSets().map((cs) => cs.name);
    let start = 0;
    if (nextToken) {
      const decoded = Number(Buffer.from(nextToken, 'base64').toString('utf8'));
      if (!Number.isInteger(decoded) || decoded < 0 || decoded > names.length) throw badRequest('NextToken is invalid.');
      start = decoded;
    }
    if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000)) {
      throw badRequest('PageSize must be an integer from 1 to 1000.');
    }
    const end = Math.min(names.length, start + (pageSize ?? 1000));
    return {
      body: {
        ConfigurationSets: names.slice(start, end),
        ...(end < names.length ? { NextToken: Buffer.from(String(end)).toString('base64') } : {}),
      },
    };
  }

  deleteConfigurationSet(name: string): OperationResult {
    if (!this.store.deleteConfigSet(name)) throw notFound(`Configuration set <${name}> does not exist.`);
    return { body: {} };
  }

  // ---------------------------------------------------------------- event destinations

  createEventDestination(setName: string, body: Json): OperationResult {
    const cs = this.requireConfigSet(setName);
    const name = checkResourceName(reqString(body.EventDestinationName, 'EventDestinationName'), 'EventDestinationName');
    if (cs.eventDestinations.some((d) => d.Name === name)) {
      throw alreadyExists(`Event destination <${name}> already exists in configuration set <${setName}>.`);
    }
    const def = asObject(body.EventDestination, 'EventDestination');
    const destination = this.parseDefinition(name, def, undefined);
    this.store.putConfigSet({ ...cs, eventDestinations: [...cs.eventDestinations, destination] });
    return { body: {} };
  }

  getEventDestinations(setName: string): OperationResult {
    const cs = this.requireConfigSet(setName);
    return { body: { EventDestinations: cs.eventDestinations } };
  }

  /** Fields present in the definition replace the stored ones; absent fields are kept. */
  updateEventDestination(setName: string, destName: string, body: Json): OperationResult {
    const cs = this.requireConfigSet(setName);
    const existing = cs.eventDestinations.find((d) => d.Name === destName);
    if (!existing) throw notFound(`Event destination <${destName}> does not exist in configuration set <${setName}>.`);
    const def = asObject(body.EventDestination, 'EventDestination');
    const updated = this.parseDefinition(destName, def, existing);
    this.store.putConfigSet({ ...cs, eventDestinations: cs.eventDestinations.map((d) => (d.Name === destName ? updated : d)) });
    return { body: {} };
  }

  deleteEventDestination(setName: string, destName: string): OperationResult {
    const cs = this.requireConfigSet(setName);
    if (!cs.eventDestinations.some((d) => d.Name === destName)) {
      throw notFound(`Event destination <${destName}> does not exist in configuration set <${setName}>.`);
    }
    this.store.putConfigSet({ ...cs, eventDestinations: cs.eventDestinations.filter((d) => d.Name !== destName) });
    return { body: {} };
  }

  private parseDefinition(name: string, def: Json, existing: EventDestination | undefined): EventDestination {
    const enabled = optBoolean(def.Enabled, 'EventDestination.Enabled');
    let types: MatchingEventType[] | undefined;
    if (def.MatchingEventTypes !== undefined && def.MatchingEventTypes !== null) {
      const list = optStringArray(def.MatchingEventTypes, 'EventDestination.MatchingEventTypes');
      for (const t of list) {
        if (!(MATCHING_EVENT_TYPES as readonly string[]).includes(t)) {
          throw badRequest(`EventDestination.MatchingEventTypes contains an unknown event type '${t}'.`);
        }
      }
      types = [...new Set(list)] as MatchingEventType[];
    }
    if (!existing && (!types || types.length === 0))
      throw badRequest('EventDestination.MatchingEventTypes must list at least one event type.');
    if (existing && types && types.length === 0) throw badRequest('EventDestination.MatchingEventTypes must list at least one event type.');

    const kinds = DESTINATION_KINDS.filter((k) => def[k] !== undefined && def[k] !== null);
    if (kinds.length > 1) throw badRequest(`EventDestination must have exactly one destination, got ${kinds.join(', ')}.`);
    if (!existing && kinds.length === 0) throw badRequest(`EventDestination must have one of ${DESTINATION_KINDS.join(', ')}.`);

    const result: EventDestination = existing ? { ...existing } : { Name: name, Enabled: false, MatchingEventTypes: [] };
    // SESv2 stores a missing Enabled as false (CDK and CloudFormation default it; the API does not).
    if (enabled !== undefined) result.Enabled = enabled;
    if (types) result.MatchingEventTypes = types;
    const kind = kinds[0];
    if (kind) {
      for (const k of DESTINATION_KINDS) delete result[k];
      if (kind === 'SnsDestination') {
        const sns = asObject(def.SnsDestination, 'EventDestination.SnsDestination');
        const topicArn = reqString(sns.TopicArn, 'EventDestination.SnsDestination.TopicArn');
        if (!/^arn:aws[a-z-]*:sns:[^:]+:[^:]+:[^:]+$/.test(topicArn)) throw badRequest(`TopicArn '${topicArn}' is not an SNS topic ARN.`);
        result.SnsDestination = { TopicArn: topicArn };
      } else {
        result[kind] = asObject(def[kind], `EventDestination.${kind}`);
        this.opts.log(`event destination ${name}: ${kind} is stored but only SnsDestination publishes events locally`);
      }
    }
    return result;
  }

  private requireConfigSet(name: string): ConfigurationSet {
    const cs = this.store.getConfigSet(name);
    if (!cs) throw notFound(`Configuration set <${name}> does not exist.`);
    return cs;
  }

  // ---------------------------------------------------------------- SendEmail

  async sendEmail(body: Json): Promise<OperationResult> {
    const content = asObject(body.Content, 'Content');
    const kinds = (['Simple', 'Raw', 'Template'] as const).filter((k) => content[k] !== undefined && content[k] !== null);
    if (kinds.length !== 1) throw badRequest('Content must contain exactly one of Simple, Raw or Template.');
    if (kinds[0] === 'Template') {
      throw badRequest(
        'Content.Template is not supported by the local SES emulator: render the template and send Content.Simple or Content.Raw.',
      );
    }

    const fromEmailAddress = optString(body.FromEmailAddress, 'FromEmailAddress') || undefined;
    const destination = optObject(body.Destination, 'Destination');
    const toAddresses = optStringArray(destination?.ToAddresses, 'Destination.ToAddresses');
    const ccAddresses = optStringArray(destination?.CcAddresses, 'Destination.CcAddresses');
    const bccAddresses = optStringArray(destination?.BccAddresses, 'Destination.BccAddresses');
    const replyTo = optStringArray(body.ReplyToAddresses, 'ReplyToAddresses');
    const emailTags = parseEmailTags(body.EmailTags);
    checkAsciiAddresses({ fromEmailAddress, to: toAddresses, cc: ccAddresses, bcc: bccAddresses, replyTo });

    const setName = optString(body.ConfigurationSetName, 'ConfigurationSetName') || undefined;
    const configSet = setName ? this.store.getConfigSet(setName) : undefined;
    if (setName && !configSet) throw notFound(`Configuration set <${setName}> does not exist.`);
    const sending = configSet?.options.SendingOptions;
    if (configSet && isObject(sending) && sending.SendingEnabled === false) {
      throw new SesError('SendingPausedException', `Sending is disabled for configuration set <${configSet.name}>.`);
    }

    const now = new Date();
    const id = sesId(now.getTime());
    let raw: Buffer;
    if (kinds[0] === 'Raw') {
      const rawContent = asObject(content.Raw, 'Content.Raw');
      raw = decodeBase64(rawContent.Data, 'Content.Raw.Data');
      if (raw.length === 0) throw badRequest('Content.Raw.Data is empty.');
    } else {
      if (!fromEmailAddress) throw badRequest('FromEmailAddress is required when sending Content.Simple.');
      raw = await this.composeSimpleContent(asObject(content.Simple, 'Content.Simple'), {
        id,
        now,
        from: fromEmailAddress,
        to: toAddresses,
        cc: ccAddresses,
        replyTo,
      });
    }
    if (raw.length > MAX_MESSAGE_BYTES) throw new SesError('MessageRejected', 'Message length is more than 40 MB.');
    await checkContentRules(raw);

    const headers = parseHeaderFields(raw);
    const decoded = await decodeHeaders(raw);

    // Envelope sender: FromEmailAddress, else the From header.
    let source: string;
    let sourceAddress: string;
    if (fromEmailAddress) {
      source = fromEmailAddress;
      sourceAddress = parseAddressList(fromEmailAddress)[0] ?? '';
    } else {
      const first = decoded.from[0];
      if (!first) throw badRequest('FromEmailAddress is required when the message has no From header.');
      source = formatMailbox(first);
      sourceAddress = first.address;
    }
    if (!isValidAddress(sourceAddress)) throw badRequest(`Illegal address: ${source}`);
    // A send through a tenant may use only the tenant's resources: its identity and configuration set.
    const tenantName =
      body.TenantName === undefined || body.TenantName === null
        ? null
        : this.tenants.checkSend(body.TenantName, sourceAddress, configSet?.name);

    // Envelope recipients: Destination when given, else the To/Cc/Bcc headers.
    const given = [...toAddresses, ...ccAddresses, ...bccAddresses];
    const candidates =
      given.length > 0
        ? given.flatMap((a) => {
            const list = parseAddressList(a);
            if (list.length === 0) throw badRequest(`Illegal address: ${a}`);
            return list;
          })
        : [...decoded.to, ...decoded.cc, ...decoded.bcc].map((m) => m.address);
    const recipients: string[] = [];
    const seen = new Set<string>();
    for (const r of candidates) {
      if (!isValidAddress(r)) throw badRequest(`Illegal address: ${r}`);
      const key = r.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      recipients.push(r);
    }
    if (recipients.length === 0) throw badRequest('The message has no recipients: set Destination or To/Cc/Bcc headers.');
    if (recipients.length > MAX_RECIPIENTS) throw badRequest(`Recipient count exceeds ${MAX_RECIPIENTS}.`);
    await this.opts.identities.checkSend(sourceAddress, recipients);
    // Account pause, suspension, send rate and daily quota, per recipient (account-limits.ts).
    this.account.admitSend(recipients.length);

    // The events this message owes are fixed now and stored with it, before the answer: a crash
    // after the answer can delay them, never lose them (see outbox.ts and publisher.ts).
    // A recipient on the send's suppression list is not sent (bounce-aftermath.ts, suppression-list.ts).
    const bouncePlan = this.bounces?.plan(configSet, tenantName, recipients);
    const outbox = configSet
      ? planOutbox(configSet, recipients, now, this.opts.outcomeDelayMs, { ...this.opts.events, outcomeOf: bouncePlan?.outcomeOf })
      : [];
    let eventMail = null;
    if (configSet && outbox.length > 0) {
      const commonHeaders: CommonHeaders = {
        from: decoded.from.length > 0 ? decoded.from.map(formatMailbox) : [source],
        ...(decoded.replyTo.length > 0 ? { replyTo: decoded.replyTo.map(formatMailbox) } : {}),
        ...(decoded.to.length > 0 ? { to: decoded.to.map(formatMailbox) } : {}),
        ...(decoded.cc.length > 0 ? { cc: decoded.cc.map(formatMailbox) } : {}),
        ...(decoded.bcc.length > 0 ? { bcc: decoded.bcc.map(formatMailbox) } : {}),
        date: headerValue(headers, 'Date') ?? now.toUTCString(),
        // The original message's Message-ID (SES's own only when it had none): see ./message-id.ts.
        messageId: headerValue(headers, 'Message-ID') ?? id,
        subject: decoded.subject,
      };
      eventMail = buildMailObject({
        messageId: id,
        timestamp: now.toISOString(),
        source,
        sourceAddress,
        region: this.opts.region,
        accountId: this.opts.accountId,
        destination: recipients,
        headers,
        commonHeaders,
        configurationSet: configSet.name,
        emailTags,
        tenantName,
      });
    }

    // Resolves once the message and its outbox are on disk (with a data directory).
    const message = await this.store.addMessage({
      id,
      receivedAt: now.toISOString(),
      from: source,
      to: recipients,
      subject: decoded.subject,
      configurationSet: configSet?.name ?? null,
      tags: emailTags,
      tenantName,
      raw: await deliveredBytes(this.store, {
        raw,
        messageId: id,
        region: this.opts.region,
        acceptedAt: now,
        configSet,
        fromAddress: decoded.from[0]?.address ?? sourceAddress,
      }),
      outbox,
      eventMail,
    });
    // Hard bounces and complaints onto the suppression list, feedback mail into the mailbox.
    if (bouncePlan)
      await this.bounces?.accepted(bouncePlan, {
        message,
        sourceAddress,
        returnPath: headerValue(headers, 'Return-Path'),
        configSet,
        acceptedAt: now,
      });
    if (outbox.length === 0) return { body: { MessageId: id } };
    return { body: { MessageId: id }, afterResponse: () => this.publisher.run(message) };
  }

  private async composeSimpleContent(
    simple: Json,
    env: { id: string; now: Date; from: string; to: string[]; cc: string[]; replyTo: string[] },
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
    const attachments: SimpleAttachment[] = optArray(simple.Attachments, 'Content.Simple.Attachments').map((a, i) => {
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
    return composeSimple({
      from: env.from,
      to: env.to,
      cc: env.cc,
      replyTo: env.replyTo,
      subject: optString(subject.Data, 'Content.Simple.Subject.Data') ?? '',
      text: text ? (optString(text.Data, 'Content.Simple.Body.Text.Data') ?? '') : undefined,
      html: html ? (optString(html.Data, 'Content.Simple.Body.Html.Data') ?? '') : undefined,
      headers,
      attachments,
      messageId: sesMessageIdHeader(env.id, this.opts.region),
      date: env.now,
    });
  }
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
