/**
 * Readers of request members with the constraints of the KMS API model (the lengths, ranges and enums of
 * each member as the API reference pages list them, e.g. Plaintext "Length Constraints: Minimum length of
 * 1. Maximum length of 4096." on https://docs.aws.amazon.com/kms/latest/APIReference/API_Encrypt.html).
 * A member of the wrong JSON type is a SerializationException (the AWS JSON protocols reject it before
 * validation); a value outside its constraint is a ValidationException in AWS's words (errors.ts).
 * Blobs travel base64-encoded, as AWS JSON 1.1 sends them.
 */
import { constraint, wrongType } from './errors';
import type { EncryptionContext } from './ciphertext';
import { isObject, type JsonObject } from './types';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function optString(body: JsonObject, member: string, min: number, max: number): string | undefined {
  const v = body[member];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw wrongType(member, 'a string');
  if (v.length < min) throw constraint(member, v, `Member must have length greater than or equal to ${min}`);
  if (v.length > max) throw constraint(member, v, `Member must have length less than or equal to ${max}`);
  return v;
}

export function reqString(body: JsonObject, member: string, min: number, max: number): string {
  const v = optString(body, member, min, max);
  if (v === undefined) throw constraint(member, undefined, 'Member must not be null');
  return v;
}

/** KeyIdType: "Length Constraints: Minimum length of 1. Maximum length of 2048." */
export const optKeyId = (body: JsonObject, member = 'KeyId'): string | undefined => optString(body, member, 1, 2048);
export const reqKeyId = (body: JsonObject, member = 'KeyId'): string => reqString(body, member, 1, 2048);

/** A blob member (base64 on the wire); its byte length is checked against min..max. Values are not echoed. */
export function optBlob(body: JsonObject, member: string, min: number, max: number): Buffer | undefined {
  const v = body[member];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !BASE64.test(v)) throw wrongType(member, 'a base64-encoded blob');
  const bytes = Buffer.from(v, 'base64');
  if (bytes.length < min) throw constraint(member, v, `Member must have length greater than or equal to ${min}`, false);
  if (bytes.length > max) throw constraint(member, v, `Member must have length less than or equal to ${max}`, false);
  return bytes;
}

export function reqBlob(body: JsonObject, member: string, min: number, max: number): Buffer {
  const v = optBlob(body, member, min, max);
  if (v === undefined) throw constraint(member, undefined, 'Member must not be null');
  return v;
}

/**
 * EncryptionContextType: a map of string to string. "The key and value in an encryption context pair must
 * be simple literal strings" (https://docs.aws.amazon.com/kms/latest/developerguide/encrypt_context.html).
 * KMS documents no length limit for the pairs: none is enforced here beyond the request size (server.ts).
 */
export function encryptionContext(body: JsonObject, member: string): EncryptionContext {
  const v = body[member];
  if (v === undefined || v === null) return {};
  if (!isObject(v)) throw wrongType(member, 'a map of strings to strings');
  for (const value of Object.values(v)) {
    if (typeof value !== 'string') throw wrongType(member, 'a map of strings to strings');
  }
  return v as EncryptionContext;
}

export function optInt(body: JsonObject, member: string, min: number, max: number): number | undefined {
  const v = body[member];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw wrongType(member, 'an integer');
  if (v < min) throw constraint(member, v, `Member must have value greater than or equal to ${min}`);
  if (v > max) throw constraint(member, v, `Member must have value less than or equal to ${max}`);
  return v;
}

export function optBool(body: JsonObject, member: string): boolean | undefined {
  const v = body[member];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw wrongType(member, 'a boolean');
  return v;
}

export function optEnum<T extends string>(body: JsonObject, member: string, allowed: readonly T[]): T | undefined {
  const v = body[member];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw wrongType(member, 'a string');
  if (!(allowed as readonly string[]).includes(v))
    throw constraint(member, v, `Member must satisfy enum value set: [${allowed.join(', ')}]`);
  return v as T;
}

/** GrantTokenList: "Array Members: Minimum number of 0 items. Maximum number of 10 items." (accepted, not used). */
export function grantTokens(body: JsonObject): void {
  const v = body.GrantTokens;
  if (v === undefined || v === null) return;
  if (!Array.isArray(v) || v.some((t) => typeof t !== 'string')) throw wrongType('GrantTokens', 'a list of strings');
  if (v.length > 10) throw constraint('GrantTokens', `[${v.join(', ')}]`, 'Member must have length less than or equal to 10');
}
