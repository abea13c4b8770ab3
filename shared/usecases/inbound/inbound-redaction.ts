/**
 * Content redaction of received mail (docs/redaction.md): a receiving domain with `inbound_store_content:
 * false` has its mail recorded without content. The inbound worker (./process-inbound.ts) then writes no
 * bodies, headers nor attachments, records the metadata (envelope, addresses, authentication, spam verdict,
 * sizes, attachment count) with no subject, stripped text nor attachment list, publishes email.received from
 * that record (so the webhook carries no content either), and deletes the raw message once recorded.
 *
 * The record keeps `content_object: true` over an empty content object (`{"html":null,"text":null,
 * "headers":[]}`: no byte of the message), so GET /received-emails/{id} answers html, text null and no headers
 * with the reader unchanged.
 */
import type { InboundContent } from '../../domain/inbound/content-keys';
import type { ReceivedEmail } from '../../domain/inbound/received-email';
import type { InboundMessage } from '../../domain/messages';
import type { InboundRoute } from '../../domain/domains/inbound-routes';
import type { DomainCrud } from '../../adapters/store/domains/crud';

export interface InboundRedactionDeps {
  /** The receiving domain's switch, read per message (absent in doubles of other rules: content kept). */
  domains?: Pick<DomainCrud, 'get'>;
}

/** The receiving domain as a forward sends from it: its name and DKIM key (sealed; the ARC seal's). */
export interface ForwardSender {
  domain: string;
  dkimSelector: string;
  sealedDkimKey: string;
}

export interface ReceivingSettings {
  keepContent: boolean;
  routes: InboundRoute[];
  /** null: the domain is gone (no routes either). */
  sender: ForwardSender | null;
}

/**
 * What the message's receiving domain says of its mail, from one read of the domain: whether it keeps the content
 * of received mail, its routes (../../domain/domains/inbound-routes.ts) and what a forward is sent from (its name
 * and DKIM key). A domain gone since: kept, no routes, as before.
 */
export async function receivingSettings(
  deps: InboundRedactionDeps,
  message: Pick<InboundMessage, 'domain_id' | 'account_id'>,
): Promise<ReceivingSettings> {
  const stored = deps.domains ? await deps.domains.get(message.domain_id) : null;
  if (!stored || stored.domain.account_id !== message.account_id) return { keepContent: true, routes: [], sender: null };
  return {
    keepContent: stored.domain.inbound_store_content !== false,
    routes: stored.domain.inbound_routes ?? [],
    sender: { domain: stored.domain.name, dkimSelector: stored.domain.dkim_selector, sealedDkimKey: stored.sealedPrivateKey },
  };
}

/** The content object of a redacted received email: nothing of the message. */
export const EMPTY_CONTENT: InboundContent = { html: null, text: null, headers: [] };

/** The record of a received email whose content is not kept: its metadata only. */
export function redactedReceivedEmail(email: ReceivedEmail): ReceivedEmail {
  const { content_object: _object, ...rest } = email;
  return {
    ...rest,
    subject: '',
    stripped_text: null,
    attachments: [],
    html_bytes: null,
    text_bytes: null,
    content_object: true,
    content_kept: false,
  };
}
