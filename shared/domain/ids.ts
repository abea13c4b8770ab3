/**
 * Public ids: a prefix and a ULID body (48-bit millisecond time + 80 random bits, Crockford base32),
 * so ids sort by creation time and "newest first" is a reverse key sort.
 */
import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix =
  | 'msg'
  | 'acc'
  | 'key'
  | 'req'
  | 'sup'
  | 'dom'
  | 'wh'
  | 'whd'
  | 'evt'
  | 'ten'
  | 'smtp'
  | 'inb'
  | 'tpl'
  | 'cop'
  | 'auto'
  | 'run'
  | 'ae'
  | 'mig'
  | 'usr';

export function ulid(now: number = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time + ulidRandomPart(randomBytes(10));
}

/** 80 bits as 16 Crockford base32 characters. */
function ulidRandomPart(bytes: Uint8Array): string {
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
  return random;
}

/**
 * A deterministic, time-sortable id: the ULID time of `at` and 80 bits of SHA-256 of `seed`. The same
 * occurrence (e.g. one email's delivery) always gets the same id, so duplicates can be recognised.
 */
export function deterministicId(prefix: IdPrefix, at: number, seed: string): string {
  return `${prefix}_${ulid(at).slice(0, 10)}${ulidRandomPart(createHash('sha256').update(seed).digest().subarray(0, 10))}`;
}

export function newId(prefix: IdPrefix, now?: number): string {
  return `${prefix}_${ulid(now)}`;
}

/** The creation time (epoch ms) in an id's ULID body (its first 10 characters); 0 when it has none. */
export function timeOfId(id: string): number {
  const start = id.indexOf('_') + 1;
  let time = 0;
  for (const c of id.slice(start, start + 10).toUpperCase()) {
    const value = ALPHABET.indexOf(c);
    if (value < 0) return 0;
    time = time * 32 + value;
  }
  return time;
}

/** True when `id` looks like an id of that prefix (cheap check before a lookup). */
export function isId(prefix: IdPrefix, id: string): boolean {
  return new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`).test(id);
}
