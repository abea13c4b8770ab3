/** In-memory fakes of the link signing ports: a key table and a SecretBox that binds plaintext to its context. */
import type { SecretBox } from '#shared/ports/secret-box';
import type { LinkKeyRepository, StoredLinkKey } from '#shared/adapters/store/link-keys';
import { LinkSigner } from '#shared/usecases/links/link-signing';

export class FakeLinkKeys implements Pick<LinkKeyRepository, 'current' | 'get' | 'create'> {
  readonly items = new Map<string, StoredLinkKey>();
  readonly calls: string[] = [];

  async current(): Promise<StoredLinkKey | null> {
    this.calls.push('current');
    const kids = [...this.items.keys()].sort((a, b) => Number(a) - Number(b));
    return kids.length ? this.items.get(kids[kids.length - 1]!)! : null;
  }

  async get(kid: string): Promise<StoredLinkKey | null> {
    this.calls.push(`get ${kid}`);
    return this.items.get(kid) ?? null;
  }

  async create(key: StoredLinkKey): Promise<boolean> {
    this.calls.push(`create ${key.kid}`);
    if (this.items.has(key.kid)) return false;
    this.items.set(key.kid, key);
    return true;
  }
}

export const fakeSecretBox: SecretBox & { opened: number } = {
  opened: 0,
  async seal(plaintext, context) {
    return `v1:fake:${Buffer.from(JSON.stringify({ plaintext, context })).toString('base64')}`;
  },
  async open(sealed, context) {
    fakeSecretBox.opened++;
    const { plaintext, context: sealedWith } = JSON.parse(Buffer.from(sealed.slice('v1:fake:'.length), 'base64').toString('utf8'));
    if (JSON.stringify(sealedWith) !== JSON.stringify(context)) throw new Error('context differs');
    return plaintext;
  },
};

export function movableClock(start = Date.parse('2026-11-22T10:00:00.000Z')) {
  let now = start;
  return {
    now: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export function signer(keys = new FakeLinkKeys(), clock = movableClock(), baseUrl = 'https://links.example.test') {
  return { signer: new LinkSigner({ linkKeys: keys, secretBox: fakeSecretBox, clock, baseUrl }), keys, clock };
}
