/**
 * The signed links a sent email carries (docs/tracking.md, docs/templates.md): the managed unsubscribe
 * link (spec rule 10), the open pixel and tracked clicks. Built by the send worker, resolved by the public
 * `links` API group (no API key: the signature is the authority). Types only; the signer lives in
 * shared/usecases/links/.
 */
import type { Category } from '../mail/category';

/** `all`: a global suppression (reason unsubscribe); `category`: an opt-out of product or newsletter mail only. */
export type UnsubscribeScope = 'all' | 'category';

export interface UnsubscribeLink {
  accountId: string;
  emailId: string;
  /** The first `to` address, lower-cased: the address the link unsubscribes. */
  recipient: string;
  scope: UnsubscribeScope;
  category: Category;
  /** The email's tenant id: its list (and opt-outs) take the unsubscribe. */
  tenantId: string | null;
}

export interface OpenLink {
  accountId: string;
  emailId: string;
}

export interface ClickLink {
  accountId: string;
  emailId: string;
  /** The original http(s) URL: the only place the redirect ever goes. */
  url: string;
}

/**
 * Builds absolute URLs under a public links base: the sending domain's active link domain
 * (`https://links.<domain>`, docs/tracking.md "Link domains"), else LINKS_BASE_URL. Synchronous once the
 * signing key is loaded.
 */
export interface LinkUrls {
  unsubscribeUrl(link: UnsubscribeLink): string;
  openUrl(link: OpenLink): string;
  clickUrl(link: ClickLink): string;
}

/**
 * The port the send worker uses: loads (or, the first time, creates) the current signing key. `linkHost`: the
 * sending domain's active link domain, whose host the URLs name; absent or null, LINKS_BASE_URL's.
 */
export interface LinkSigning {
  urls(linkHost?: string | null): Promise<LinkUrls>;
}

/** The links base of a link domain's host: HTTPS on the host itself (its certificate is the service's). */
export function linkHostBaseUrl(linkHost: string): string {
  return `https://${linkHost.toLowerCase().replace(/\.$/, '')}`;
}

/** The scope of a category's unsubscribe link: transactional mail has no category opt-out (spec rule 11). */
export function unsubscribeScopeOf(category: Category): UnsubscribeScope {
  return category === 'transactional' ? 'all' : 'category';
}
