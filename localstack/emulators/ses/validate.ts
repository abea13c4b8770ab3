/** Small readers for untrusted JSON request bodies; each failure is a BadRequestException. */
import { badRequest } from './errors';

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function asObject(v: unknown, field: string): Json {
  if (!isObject(v)) throw badRequest(`${field} must be an object.`);
  return v;
}

export function optObject(v: unknown, field: string): Json | undefined {
  return v === undefined || v === null ? undefined : asObject(v, field);
}

export function reqString(v: unknown, field: string): string {
  if (typeof v !== 'string' || v.length === 0) throw badRequest(`${field} is required and must be a non-empty string.`);
  return v;
}

export function optString(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`${field} must be a string.`);
  return v;
}

export function optBoolean(v: unknown, field: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw badRequest(`${field} must be a boolean.`);
  return v;
}

export function optStringArray(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw badRequest(`${field} must be a list of strings.`);
  return v as string[];
}

export function optArray(v: unknown, field: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw badRequest(`${field} must be a list.`);
  return v;
}

/** Configuration set and event destination names: letters, digits, `_` and `-`, at most 64. */
export function checkResourceName(name: string, field: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw badRequest(`${field} '${name}' is invalid: use 1-64 letters, digits, underscores or dashes.`);
  }
  return name;
}

/** Base64 as the SDK sends blobs; rejects anything else. */
export function decodeBase64(v: unknown, field: string): Buffer {
  if (typeof v !== 'string') throw badRequest(`${field} is required (base64).`);
  const compact = v.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) throw badRequest(`${field} is not valid base64.`);
  return Buffer.from(compact, 'base64');
}
