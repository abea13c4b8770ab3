/**
 * Signing and resolving the links a sent email carries (docs/tracking.md): the send worker asks
 * `urls()` for a signer bound to the current key; the public `links` API group calls `resolve(token,
 * kind)`; the admin CLI calls `rotateLinkKey()`.
 *
 * Keys (shared/adapters/store/link-keys.ts) are 32 random bytes sealed by the SecretBox with context {purpose:
 * 'links', kid}. The first key is created lazily by the first `urls()` (a conditional put on kid 1:
 * racing first sends create one key, the losers read it). Rotation adds the next kid; older keys stay
 * and keep verifying, so links survive rotation.
 *
 * Caches (per process; docs/reference/caches.md): the current key for CURRENT_KEY_TTL_MS (a
 * rotation reaches a warm send worker within that time; links signed meanwhile under the previous key
 * stay valid), and opened keys by kid for the life of the process (a key never changes). Unknown kids
 * and failures are not cached.
 */
import { randomBytes } from 'node:crypto';
import { linkHostBaseUrl, type LinkSigning, type LinkUrls } from '../../domain/links/link-urls';
import {
  encodeLinkToken,
  LINK_KEY_BYTES,
  tokenKid,
  verifyLinkToken,
  type LinkKey,
  type LinkKind,
  type LinkOfKind,
  type TokenFailure,
} from '../../domain/links/token';
import { BoundedMap } from '../../lib/bounded-map';
import type { Clock } from '../../ports/clock';
import type { SecretBox } from '../../ports/secret-box';
import type { LinkKeyRepository, StoredLinkKey } from '../../adapters/store/link-keys';

/** How long a process signs with the key it loaded before looking for a newer one. */
export const CURRENT_KEY_TTL_MS = 5 * 60_000;
/** Opened keys kept per process (there are only as many as rotations). */
const OPENED_KEYS = 1_000;
const CREATE_ATTEMPTS = 5;

export interface LinkSigningDeps {
  linkKeys: Pick<LinkKeyRepository, 'current' | 'get' | 'create'>;
  secretBox: SecretBox;
  clock: Clock;
  /** LINKS_BASE_URL (no trailing slash): where the public links API group answers. */
  baseUrl: string;
}

/** The SecretBox context of a link key: its secret opens only as that key. */
export function linkKeyContext(kid: string): Record<string, string> {
  return { purpose: 'links', kid };
}

/** A resolved token of the expected kind, or why not (`wrong_kind`: a valid token of another kind). */
export type ResolvedLink<K extends LinkKind> =
  | { ok: true; kid: string; link: LinkOfKind<K> }
  | { ok: false; failure: TokenFailure | 'wrong_kind' };

export interface RotatedKey {
  kid: string;
  created_at: string;
}

export class LinkSigner implements LinkSigning {
  private current: { at: number; key: Promise<LinkKey> } | undefined;
  private readonly opened = new BoundedMap<string, Promise<Buffer>>(OPENED_KEYS);

  constructor(
    private readonly deps: LinkSigningDeps,
    private readonly currentTtlMs = CURRENT_KEY_TTL_MS,
  ) {}

  /**
   * URL builders signing with the current key (created the first time), under the sending domain's active link
   * domain `linkHost` when given, else under LINKS_BASE_URL. A token verifies whichever host it came through.
   */
  async urls(linkHost?: string | null): Promise<LinkUrls> {
    const base = linkHost ? linkHostBaseUrl(linkHost) : this.deps.baseUrl.replace(/\/+$/, '');
    if (base === '') throw new Error('Missing configuration: set LINKS_BASE_URL (the public base URL of the links API group)');
    const key = await this.currentKey();
    return {
      unsubscribeUrl: (link) => `${base}/unsubscribe/${encodeLinkToken(key, { kind: 'unsubscribe', link })}`,
      openUrl: (link) => `${base}/t/open/${encodeLinkToken(key, { kind: 'open', link })}`,
      clickUrl: (link) => `${base}/t/click/${encodeLinkToken(key, { kind: 'click', link })}`,
    };
  }

  /** The link a token signs, if its key exists, its signature holds and it is of `kind`. */
  async resolve<K extends LinkKind>(token: string, kind: K): Promise<ResolvedLink<K>> {
    const kid = tokenKid(token);
    if (kid === null) return { ok: false, failure: 'malformed' };
    const secret = await this.secretOf(kid);
    const verified = verifyLinkToken(token, (asked) => (asked === kid && secret !== null ? secret : undefined));
    if (!verified.ok) return verified;
    if (verified.signed.kind !== kind) return { ok: false, failure: 'wrong_kind' };
    return { ok: true, kid, link: verified.signed.link as LinkOfKind<K> };
  }

  /**
   * Adds a new signing key (the next kid) and signs with it from now on in this process (others within
   * CURRENT_KEY_TTL_MS). Older keys stay: links signed under them keep working.
   */
  async rotateLinkKey(): Promise<RotatedKey> {
    for (let attempt = 1; ; attempt++) {
      const newest = await this.deps.linkKeys.current();
      const kid = newest === null ? '1' : String(Number(newest.kid) + 1);
      const created = await this.createKey(kid);
      if (created) {
        this.current = { at: this.deps.clock.now().getTime(), key: Promise.resolve(created.key) };
        return { kid, created_at: created.stored.created_at };
      }
      // Another rotation took that kid: add ours after it.
      if (attempt >= CREATE_ATTEMPTS) throw new Error('Could not add a link key: kids kept being taken by concurrent rotations');
    }
  }

  private currentKey(): Promise<LinkKey> {
    const now = this.deps.clock.now().getTime();
    if (this.current && now - this.current.at < this.currentTtlMs) return this.current.key;
    const key = this.loadCurrent();
    const entry = { at: now, key };
    this.current = entry;
    key.catch(() => {
      if (this.current === entry) this.current = undefined;
    });
    return key;
  }

  private async loadCurrent(): Promise<LinkKey> {
    for (let attempt = 1; ; attempt++) {
      const stored = await this.deps.linkKeys.current();
      if (stored) return { kid: stored.kid, secret: await this.open(stored) };
      const created = await this.createKey('1');
      if (created) return created.key;
      // Another process created the first key between our read and our put: read it.
      if (attempt >= CREATE_ATTEMPTS) throw new Error('Could not load or create the first link key');
    }
  }

  /** A new key under `kid`, or null when that kid is taken. */
  private async createKey(kid: string): Promise<{ key: LinkKey; stored: StoredLinkKey } | null> {
    const secret = randomBytes(LINK_KEY_BYTES);
    const stored: StoredLinkKey = {
      kid,
      sealed_secret: await this.deps.secretBox.seal(secret.toString('base64'), linkKeyContext(kid)),
      created_at: this.deps.clock.now().toISOString(),
    };
    if (!(await this.deps.linkKeys.create(stored))) return null;
    this.opened.set(kid, Promise.resolve(secret));
    return { key: { kid, secret }, stored };
  }

  /** The secret of `kid` (opened once per process), or null when there is no such key. */
  private async secretOf(kid: string): Promise<Buffer | null> {
    const hit = this.opened.get(kid);
    if (hit) return hit;
    const stored = await this.deps.linkKeys.get(kid);
    return stored ? this.open(stored) : null;
  }

  private open(stored: StoredLinkKey): Promise<Buffer> {
    const hit = this.opened.get(stored.kid);
    if (hit) return hit;
    const secret = this.deps.secretBox.open(stored.sealed_secret, linkKeyContext(stored.kid)).then((text) => {
      const bytes = Buffer.from(text, 'base64');
      if (bytes.length !== LINK_KEY_BYTES) throw new Error(`Link key ${stored.kid} is not ${LINK_KEY_BYTES} bytes`);
      return bytes;
    });
    this.opened.set(stored.kid, secret);
    secret.catch(() => this.opened.delete(stored.kid));
    return secret;
  }
}
