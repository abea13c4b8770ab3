/**
 * SendGrid's `POST /v3/mail/send`, from the request's key and body to an outcome, through the one send
 * core: the key (`Authorization: Bearer svc_...`: 401, then 403 for a key without emails:send), the body
 * (SendGrid's schema, ./request-schema.ts: 400), the template id (./template-alias.ts), the mapping to our
 * send requests (./to-send-requests.ts), then
 *  - sandbox_mode: each request validated by the send core's schema, nothing sent (SendGrid's 200);
 *  - one personalization: sendEmail (attachments allowed);
 *  - several: sendBatch with strict validation, so the whole request is validated before anything is
 *    sent, as SendGrid does (each personalization one email).
 * The answer (202 + X-Message-Id, or SendGrid's error) is ./answer.ts's. No idempotency: SendGrid has none.
 */
import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { UnauthorizedError } from '#shared/domain/errors';
import { issuesToFields, parseWith } from '#shared/domain/request-validation';
import { apiKeySecretHash, authenticateKeyHash } from '#shared/usecases/access/authenticate';
import { sendEmail } from '#shared/usecases/send';
import { sendBatch, validateBatchStrictly } from '#shared/usecases/send/send-batch';
import type { CompatServices } from '../services';
import { outcomeOfBatch, outcomeOfError, type SendgridOutcome } from './answer';
import { SendgridRequestError } from './errors';
import { mailSendSchema } from './request-schema';
import { templateAliasOf } from './template-alias';
import { toSendRequests } from './to-send-requests';

/** The outcome, or `validated` for a sandbox_mode request that passed (SendGrid answers 200, empty). */
export type MailSendOutcome = SendgridOutcome | { kind: 'validated' };

const KEY_FORM = 'Pass your API key as "Authorization: Bearer svc_..." (the SDK: setApiKey(key)).';

/** The key of `Authorization: Bearer <key>`: 401 when missing or malformed. */
export function bearerKey(authorization: string | undefined): string {
  if (!authorization) throw new UnauthorizedError(`Missing API key. ${KEY_FORM}`);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw new UnauthorizedError(`Invalid API key. ${KEY_FORM}`);
  return match[1]!;
}

/** SendGrid's body schema: a SendgridRequestError naming SendGrid's fields. */
function parseMailSend(body: unknown) {
  const parsed = mailSendSchema.safeParse(body);
  if (!parsed.success)
    throw new SendgridRequestError(
      issuesToFields(parsed.error.issues).map((f) => ({ field: f.field === '(body)' ? null : f.field, message: f.message })),
    );
  return parsed.data;
}

/**
 * `readBody` reads the JSON body (a 400 for none or bad JSON); called after the key is checked, so a bad
 * caller is answered as one (401/403) before its body is looked at.
 */
export async function mailSend(
  services: CompatServices,
  authorization: string | undefined,
  readBody: () => Promise<unknown>,
): Promise<MailSendOutcome> {
  const principal = await authenticateKeyHash(services, apiKeySecretHash(bearerKey(authorization)));
  await services.sendContextLoader.refuseCallerFirst({ principal }, services.clock.now());
  const body = parseMailSend(await readBody());
  const templateAlias = body.template_id ? await templateAliasOf(services, principal.account.id, body.template_id) : undefined;
  const { requests, sandbox } = toSendRequests(body, { now: services.clock.now(), templateAlias });
  if (sandbox) {
    if (requests.length === 1) parseWith(sendRequestSchema, requests[0]);
    else validateBatchStrictly(requests);
    return { kind: 'validated' };
  }
  if (requests.length === 1) {
    const parsed = parseWith(sendRequestSchema, requests[0]);
    try {
      const result = await sendEmail(services, { principal }, parsed);
      return { kind: 'accepted', messageId: result.id };
    } catch (error) {
      return outcomeOfError(error);
    }
  }
  return outcomeOfBatch(await sendBatch(services, principal, requests, undefined, 'strict'));
}
