/**
 * Dashboard passwords at rest (docs/dashboard.md, "Sign-in and sessions"): scrypt (memory-hard, in
 * node:crypto, nothing to install), a random 16-byte salt per hash, a 32-byte key, compared in constant
 * time. The parameters are stored with the hash in PHC string form,
 *
 *   $scrypt$ln=15,r=8,p=3$<salt, base64 without padding>$<key, base64 without padding>
 *
 * so they can be raised later: a hash made with weaker parameters than PASSWORD_HASH_PARAMS still
 * verifies, and `needsRehash` tells the sign-in to store a fresh one (shared/usecases/dashboard/sign-in.ts).
 *
 * Why N = 2^15, r = 8, p = 3: OWASP's Password Storage Cheat Sheet asks for scrypt N = 2^17, r = 8, p = 1
 * (128 MiB) or one of its listed equivalents, which trade memory for passes; N = 2^15, r = 8, p = 3 is one
 * of them. 32 MiB per hash (comfortable in a 512 MB Lambda, and on the local cloud's one process when a
 * few sign-ins overlap) and ~150-300 ms of one core, on libuv's thread
 * pool (the event loop is not blocked). Each guess costs an attacker that memory and time per candidate;
 * the sign-in's rate limits bound online guessing.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptParams {
  /** log2 of the cost N. */
  ln: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
}

/** What new hashes use. Raise here; stored hashes carry their own and are upgraded at the next sign-in. */
export const PASSWORD_HASH_PARAMS: ScryptParams = { ln: 15, r: 8, p: 3 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Hashes with larger parameters than these are refused (a stored string must not make us allocate gigabytes). */
const MAX_PARAMS: ScryptParams = { ln: 20, r: 16, p: 16 };

function scrypt(password: string, salt: Buffer, keyLength: number, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = {
    N: 2 ** params.ln,
    r: params.r,
    p: params.p,
    maxmem: 256 * 2 ** params.ln * params.r + 16 * 1024 * 1024,
  };
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

export interface ParsedPasswordHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

const withinBounds = (params: ScryptParams) =>
  params.ln >= 1 && params.r >= 1 && params.p >= 1 && params.ln <= MAX_PARAMS.ln && params.r <= MAX_PARAMS.r && params.p <= MAX_PARAMS.p;

/**
 * Parameters written as a PHC string writes them (`ln=15,r=8,p=3`), within the bounds a stored hash may have;
 * null otherwise. PASSWORD_HASH_COST, a tuning knob of test stacks (shared/config/config.ts), is read with it.
 */
export function parseScryptParams(text: string): ScryptParams | null {
  const match = /^ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})$/.exec(text.trim());
  if (!match) return null;
  const params = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  return withinBounds(params) ? params : null;
}

/** The PHC string's parts, or null when it is not a scrypt hash of ours (bounded parameters). */
export function parsePasswordHash(encoded: string): ParsedPasswordHash | null {
  const match = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,88})\$([A-Za-z0-9+/]{16,88})$/.exec(encoded);
  if (!match) return null;
  const params = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (!withinBounds(params)) return null;
  return { params, salt: Buffer.from(match[4]!, 'base64'), key: Buffer.from(match[5]!, 'base64') };
}

/** A new hash of `password` with a fresh salt (parameters: PASSWORD_HASH_PARAMS unless given). */
export async function hashPassword(password: string, params: ScryptParams = PASSWORD_HASH_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, KEY_BYTES, params);
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${b64(salt)}$${b64(key)}`;
}

/** Whether `password` is the one hashed into `encoded` (constant-time compare; false for an unreadable hash). */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parsePasswordHash(encoded);
  if (!parsed) return false;
  const key = await scrypt(password, parsed.salt, parsed.key.length, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** True when `encoded` was made with weaker parameters than `current` (store a new hash after a successful sign-in). */
export function needsRehash(encoded: string, current: ScryptParams = PASSWORD_HASH_PARAMS): boolean {
  const parsed = parsePasswordHash(encoded);
  if (!parsed) return true;
  const { params } = parsed;
  return (
    params.ln < current.ln ||
    params.r < current.r ||
    params.p < current.p ||
    parsed.salt.length < SALT_BYTES ||
    parsed.key.length < KEY_BYTES
  );
}

/** Hashing, checking and upgrading passwords with one set of parameters: the dashboard use cases' port. */
export interface PasswordHasher {
  /** A new hash with this hasher's parameters. */
  hash(password: string): Promise<string>;
  /** Whether `password` is the one hashed into `encoded`, whatever parameters it was made with. */
  verify(password: string, encoded: string): Promise<boolean>;
  /** Whether `encoded` was made with weaker parameters than this hasher's. */
  needsRehash(encoded: string): boolean;
}

/**
 * The scrypt hasher: PASSWORD_HASH_PARAMS in the service; smaller parameters in unit tests of the use
 * cases, which hash and check dozens of passwords (at N = 2^15 they took 16-24 s of CPU).
 */
export function scryptPasswords(params: ScryptParams = PASSWORD_HASH_PARAMS): PasswordHasher {
  return {
    hash: (password) => hashPassword(password, params),
    verify: verifyPassword,
    needsRehash: (encoded) => needsRehash(encoded, params),
  };
}
