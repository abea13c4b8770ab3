/**
 * Request bodies whose validation is written by hand around the domain's zod schemas (a bare array or
 * `{emails}` for the batch, a union by `action`, per-provider credentials, steps and attachments
 * dispatched by a field): documentation schemas built from the same pieces. The unit tests parse every
 * example of these with the real validation (their operations' `decodedBy`, functions/api/<group>/operations.ts).
 */
import * as z from 'zod';
import { conditionSchema } from '../../domain/automations/condition-schema';
import { STEP_SCHEMAS } from '../../domain/automations/validate-definition';
import { CONDITION_OPERATORS } from '../../domain/automations/automation';
import {
  applyDnsSchema,
  cloudflareCredentialsSchema,
  domainActionSchema,
  route53CredentialsSchema,
  storeDnsProviderSchema,
} from '../../domain/domains/schemas';
import { DNS_HOSTS } from '../../domain/domains/dns-apply';
import { sendRequestSchema } from '../../domain/emails/send-request';
import { attachmentReferenceSchema, inlineAttachmentSchema } from '../../domain/emails/attachments';
import { MAX_BATCH, validateBatchShape } from '../../usecases/send/send-batch';

/** POST /emails/batch: `{emails: [...]}` or a bare array (what the resend SDK's batch.send posts). */
export const batchRequestSchema = z.union([
  z.object({
    emails: z
      .array(sendRequestSchema)
      .min(1)
      .max(MAX_BATCH)
      .describe(`1-${MAX_BATCH} send requests, each as for POST /emails (no attachments)`),
  }),
  z.array(sendRequestSchema).min(1).max(MAX_BATCH),
]);

/** DNS host credentials (for apply and PUT /dns-providers/{provider}): Route 53 keys or a Cloudflare token. */
export const dnsCredentialsSchema = z.union([route53CredentialsSchema, cloudflareCredentialsSchema]);

/** POST /domains/{id}: verify, or apply (write the records at the DNS host, then verify). */
export const domainActionRequestSchema = z.union([
  z.strictObject({ action: z.literal('verify').describe("check DNS (and that the service can sign with the domain's DKIM key)") }),
  z.strictObject({
    action: z.literal('apply').describe('write the records at the DNS host, then verify'),
    provider: z.enum(DNS_HOSTS).describe('the DNS host of the domain: route53 or cloudflare'),
    credentials: dnsCredentialsSchema
      .optional()
      .describe('for this request only; else the stored credentials, else (Route 53) the service role'),
  }),
]);

/** PUT /dns-providers/{provider}. */
export const storeDnsProviderRequestSchema = z.strictObject({
  credentials: dnsCredentialsSchema.describe("the host's credentials (Route 53 keys or a Cloudflare token): stored sealed, never returned"),
});

/** An item of a send request's `attachments`: inline bytes, or an upload's id (POST /attachments). */
export const attachmentInputSchema = z.union([inlineAttachmentSchema, attachmentReferenceSchema]);

/** A step of POST/PATCH /automations, by `type`. */
export const stepInputSchema = z.union([
  STEP_SCHEMAS.send_email,
  STEP_SCHEMAS.delay,
  STEP_SCHEMAS.wait_for_event,
  z
    .object({
      key: z.string().describe('unique in the automation: 1-64 of a-z 0-9 _ - (not end or continue)'),
      type: z.literal('condition').describe('always `condition`'),
      next: z.string().optional().describe('the key of the step that follows when true (default: the next in the list)'),
      field: z.string().optional().describe('a rule: event.name, event.email, event.user_id or event.data.<key>'),
      operator: z
        .enum(CONDITION_OPERATORS)
        .optional()
        .describe(
          'a rule: eq, neq (a string, number or boolean), gt, gte, lt, lte (a number), contains, starts_with, ends_with (a string), exists, is_empty (no value)',
        ),
      value: z
        .union([z.string(), z.number(), z.boolean()])
        .optional()
        .describe('a rule: the value compared with (refused for exists and is_empty)'),
      all: z.array(conditionSchema).optional().describe('a group: true when every condition is (1-20; nested at most 3 deep)'),
      any: z.array(conditionSchema).optional().describe('a group: true when at least one condition is (1-20; nested at most 3 deep)'),
    })
    .describe(
      'a rule ({field, operator, value?}) or a group ({all: [...]} or {any: [...]}, nested at most 3 deep) beside key, type and next',
    ),
]);

/**
 * How the routes validate the bodies documented here (what the unit tests parse the examples with):
 * the documentation schema stands for this code.
 */
export const VALIDATED_BY = new Map<z.ZodType, (body: unknown) => void>([
  [
    batchRequestSchema,
    (body) =>
      validateBatchShape(body).forEach((item) => {
        sendRequestSchema.parse(item);
      }),
  ],
  [
    domainActionRequestSchema,
    (body) => {
      if (domainActionSchema.parse(body).action === 'apply') applyDnsSchema.parse(body);
    },
  ],
  [
    storeDnsProviderRequestSchema,
    (body) =>
      DNS_HOSTS.some((host) => storeDnsProviderSchema(host).safeParse(body).success) || storeDnsProviderSchema('route53').parse(body),
  ],
]);
