/**
 * The local viewer's routes (GET /_local/...): the messages matching a query (../message-query.ts), the
 * identities, the tenants, the mailbox page, and one message's raw bytes.
 */
import { SesError } from '../errors';
import { MessageQueryError, parseMessageQuery, type MessageQuery } from '../message-query';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { findMessages, listIdentities, listTenants, mailboxHtml } from '../viewer';
import { localJson, type LocalReply } from './local-reply';

export function localMessages(state: SesState, request: SesRequest): LocalReply {
  let query: MessageQuery;
  try {
    query = parseMessageQuery(request.query);
  } catch (err) {
    if (err instanceof MessageQueryError) throw new SesError('BadRequestException', err.message);
    throw err;
  }
  return localJson({ messages: findMessages(state.store, query) });
}

export function localIdentities(state: SesState, _request: SesRequest): LocalReply {
  return localJson({ identities: listIdentities(state.store) });
}

export function localTenants(state: SesState, _request: SesRequest): LocalReply {
  return localJson({ tenants: listTenants(state.store) });
}

export function localMailbox(state: SesState, _request: SesRequest): LocalReply {
  return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: mailboxHtml(state.store) };
}

export function localRawMessage(state: SesState, request: SesRequest): LocalReply {
  const id = request.params[0] ?? '';
  const raw = state.store.getMessage(id)?.raw;
  if (!raw) throw new SesError('NotFoundException', `Message <${id}> does not exist.`);
  return { status: 200, headers: { 'content-type': 'message/rfc822' }, body: raw };
}
