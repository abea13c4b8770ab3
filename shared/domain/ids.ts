/**
 * Public ids: a prefix and a ULID body (48-bit millisecond time + 80 random bits, Crockford base32),
 * so ids sort by creation time and "newest first" is a reverse key sort.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix = 'msg' | 'acc' | 'key' | 'req' | 'sup' | 'dom' | 'wh' | 'evt';

export function ulid(now: number = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(10);
  let random = '';
  // 80 bits -> 16 base32 chars, 5 bits at a time.
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      random += ALPHABET[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  return time + random;
}

export function newId(prefix: IdPrefix, now?: number): string {
  return `${prefix}_${ulid(now)}`;
}

/** True when `id` looks like an id of that prefix (cheap check before a lookup). */
export function isId(prefix: IdPrefix, id: string): boolean {
  return new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`).test(id);
}
