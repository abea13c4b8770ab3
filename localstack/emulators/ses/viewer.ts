/**
 * The local views of what the emulator holds, JSON-ready: for the emulator's callers (./index.ts) and its
 * local routes (operations/local-viewer.ts). Never a private key.
 */
import { MAILBOX_PAGE_LIMIT, renderMailboxHtml } from './mailbox-html';
import { selectMessages, type MessageQuery } from './message-query';
import type { SesStore } from './store';
import {
  toLocalIdentity,
  toLocalMessage,
  toLocalMessageSummary,
  toLocalTenant,
  type LocalSesIdentity,
  type LocalSesMessage,
  type LocalSesMessageSummary,
  type LocalSesTenant,
} from './types';

/** Every message, newest first, with its bytes. */
export function listMessages(store: SesStore): LocalSesMessage[] {
  return store.listMessages().map(toLocalMessage);
}

/** The messages matching `query` (./message-query.ts), newest first; bytes only when `query.raw`. */
export function findMessages(store: SesStore, query: MessageQuery): (LocalSesMessage | LocalSesMessageSummary)[] {
  return selectMessages(store.listMessages(), query).map(query.raw ? toLocalMessage : toLocalMessageSummary);
}

export function listIdentities(store: SesStore): LocalSesIdentity[] {
  return store.listIdentities().map(toLocalIdentity);
}

export function listTenants(store: SesStore): LocalSesTenant[] {
  return store.listTenants().map(toLocalTenant);
}

export function mailboxHtml(store: SesStore): string {
  const all = store.listMessages();
  return renderMailboxHtml(all.slice(0, MAILBOX_PAGE_LIMIT).map(toLocalMessage), all.length);
}
