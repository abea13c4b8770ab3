/**
 * The four Postmark sends onto the one send core: a message through `sendEmail` (as POST /emails: the key
 * read with the send's other items; a bad request from a bad key answered 401 first), a batch through
 * `sendBatch` (permissive: each message succeeds or fails on its own, as Postmark's batch does). Each
 * takes the request's key hash and body and returns Postmark's answer; errors are thrown (./errors.ts
 * turns them into Postmark's shapes). No sending rule lives here: the mapping is ./to-send-request.ts.
 */
import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { parseWith } from '#shared/domain/request-validation';
import { authenticateKeyHash } from '#shared/usecases/access/authenticate';
import type { Principal } from '#shared/usecases/access/principal';
import { sendEmail, type SendCaller } from '#shared/usecases/send';
import { MAX_BATCH, sendBatch } from '#shared/usecases/send/send-batch';
import { checkSendScope } from '#shared/usecases/send/policy';
import type { CompatServices } from '../services';
import { batchAnswer, sentAnswer, type PostmarkBatchEntry, type PostmarkSent, type PreparedMessage } from './answers';
import { POSTMARK_CODES, PostmarkFailure } from './errors';
import { parsePostmark } from './read-request';
import { postmarkMessageSchema, postmarkTemplatedMessageSchema, type PostmarkTemplatedMessage } from './schema';
import { aliasForTemplateAlias, aliasForTemplateId } from './template-alias';
import { messageToSendRequest, templatedToSendRequest } from './to-send-request';

/** Postmark takes 500 messages a batch; we take the batch core's 100 (more is Postmark's 410, nothing sent). */
export const POSTMARK_BATCH_LIMIT = MAX_BATCH;

/** 401 before 400: a request that cannot be mapped is first checked for its key (as POST /emails). */
async function orCallerFirst<T>(services: CompatServices, apiKeyHash: string, map: () => Promise<T> | T): Promise<T> {
  try {
    return await map();
  } catch (error) {
    await services.sendContextLoader.refuseCallerFirst({ apiKeyHash }, services.clock.now());
    throw error;
  }
}

/** POST /email. */
export async function sendPostmarkEmail(
  services: CompatServices,
  apiKeyHash: string,
  readBody: () => Promise<unknown>,
): Promise<PostmarkSent> {
  const { to, request } = await orCallerFirst(services, apiKeyHash, async () => {
    const message = parsePostmark(postmarkMessageSchema, await readBody());
    return { to: message.To, request: parseWith(sendRequestSchema, messageToSendRequest(message)) };
  });
  const result = await sendEmail(services, { apiKeyHash }, request);
  return sentAnswer(to, result.id, services.clock.now());
}

/** Our alias of a templated message's template; a TemplateId is looked up in the account's Postmark imports. */
async function templateAliasOf(
  services: CompatServices,
  principal: () => Promise<Principal>,
  message: PostmarkTemplatedMessage,
): Promise<string> {
  if (message.TemplateAlias !== null && message.TemplateAlias !== undefined && message.TemplateAlias.trim() !== '')
    return aliasForTemplateAlias(message.TemplateAlias);
  if (message.TemplateId !== null && message.TemplateId !== undefined)
    return aliasForTemplateId(services.imports, (await principal()).account.id, message.TemplateId);
  throw new PostmarkFailure(
    POSTMARK_CODES.invalidRequest,
    'Invalid email request: give TemplateAlias (our template alias) or TemplateId (a Postmark template id from an import).',
  );
}

/** POST /email/withTemplate. */
export async function sendPostmarkWithTemplate(
  services: CompatServices,
  apiKeyHash: string,
  readBody: () => Promise<unknown>,
): Promise<PostmarkSent> {
  let principal: Principal | undefined;
  // A TemplateId needs the account (its imports): the key is then read first, and the send takes the principal.
  const resolve = async () => (principal ??= await authenticateKeyHash(services, apiKeyHash));
  const { to, request } = await orCallerFirst(services, apiKeyHash, async () => {
    const message = parsePostmark(postmarkTemplatedMessageSchema, await readBody());
    const alias = await templateAliasOf(services, resolve, message);
    return {
      to: message.To,
      request: parseWith(sendRequestSchema, templatedToSendRequest(message, { alias, model: message.TemplateModel })),
    };
  });
  const caller: SendCaller = principal ? { principal } : { apiKeyHash };
  const result = await sendEmail(services, caller, request);
  return sentAnswer(to, result.id, services.clock.now());
}

/** The key's principal, allowed to send (401 / 403 as Postmark's 401), before a batch is read. */
async function batchPrincipal(services: CompatServices, apiKeyHash: string): Promise<Principal> {
  const principal = await authenticateKeyHash(services, apiKeyHash);
  checkSendScope(principal.credential);
  return principal;
}

function batchItems(body: unknown, what: string): unknown[] {
  if (!Array.isArray(body)) throw new PostmarkFailure(POSTMARK_CODES.invalidRequest, `Invalid email request: the body must be ${what}.`);
  if (body.length > POSTMARK_BATCH_LIMIT) {
    throw new PostmarkFailure(
      POSTMARK_CODES.tooManyBatchMessages,
      `Too many batch messages: this batch has ${body.length}; at most ${POSTMARK_BATCH_LIMIT} messages per batch here (Postmark allows 500). Nothing was sent: split it into batches of ${POSTMARK_BATCH_LIMIT}.`,
    );
  }
  return body;
}

/** The mapped messages through the batch core (permissive), answered one entry per message. */
async function sendPrepared(services: CompatServices, principal: Principal, prepared: PreparedMessage[]): Promise<PostmarkBatchEntry[]> {
  const requests = prepared.flatMap((message) => ('request' in message ? [message.request] : []));
  const results = requests.length ? (await sendBatch(services, principal, requests, undefined, 'permissive')).data : [];
  return batchAnswer(prepared, results, services.clock.now());
}

const toOf = (item: unknown): string | null => {
  const to = (item as { To?: unknown } | null)?.To;
  return typeof to === 'string' ? to : null;
};

/** POST /email/batch. */
export async function sendPostmarkBatch(
  services: CompatServices,
  apiKeyHash: string,
  readBody: () => Promise<unknown>,
): Promise<PostmarkBatchEntry[]> {
  const principal = await batchPrincipal(services, apiKeyHash);
  const items = batchItems(await readBody(), 'a JSON array of messages');
  const prepared = items.map((item): PreparedMessage => {
    try {
      return { to: toOf(item), request: messageToSendRequest(parsePostmark(postmarkMessageSchema, item)) };
    } catch (error) {
      return { to: toOf(item), refused: error };
    }
  });
  return sendPrepared(services, principal, prepared);
}

/** POST /email/batchWithTemplates: `{"Messages": [...]}`. */
export async function sendPostmarkBatchWithTemplates(
  services: CompatServices,
  apiKeyHash: string,
  readBody: () => Promise<unknown>,
): Promise<PostmarkBatchEntry[]> {
  const principal = await batchPrincipal(services, apiKeyHash);
  const body = await readBody();
  const items = batchItems((body as { Messages?: unknown } | null)?.Messages, '{"Messages": [templated messages]}');
  const prepared: PreparedMessage[] = [];
  // One after the other: a TemplateId's lookup reads the account's imports (aliases rarely repeat a lookup).
  for (const item of items) {
    try {
      const message = parsePostmark(postmarkTemplatedMessageSchema, item);
      const alias = await templateAliasOf(services, async () => principal, message);
      prepared.push({ to: toOf(item), request: templatedToSendRequest(message, { alias, model: message.TemplateModel }) });
    } catch (error) {
      prepared.push({ to: toOf(item), refused: error });
    }
  }
  return sendPrepared(services, principal, prepared);
}
