/**
 * Reading provider JSON without trusting it: small accessors that answer null for a missing or
 * mistyped field, and `expect*` guards that turn a body of the wrong shape into ProviderError
 * unavailable (the provider answered something we cannot read, not a bug of ours).
 */
import { PROVIDER_LABELS, type ProviderName } from '../../domain/imports/source';
import { ProviderError } from '../../ports/provider-source';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field, numbers written as text; null otherwise. */
export function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** A non-empty string field; null for missing, empty or whitespace-only. */
export function nonEmpty(value: unknown): string | null {
  const s = text(value);
  return s !== null && s.trim() !== '' ? s : null;
}

export function objectAt(value: unknown, key: string): JsonObject | null {
  if (!isObject(value)) return null;
  const inner = value[key];
  return isObject(inner) ? inner : null;
}

export function arrayAt(value: unknown, key: string): unknown[] | null {
  if (!isObject(value)) return null;
  const inner = value[key];
  return Array.isArray(inner) ? inner : null;
}

export function expectArray(body: unknown, provider: ProviderName, what: string): unknown[] {
  if (Array.isArray(body)) return body;
  throw unreadable(provider, what);
}

export function expectObject(body: unknown, provider: ProviderName, what: string): JsonObject {
  if (isObject(body)) return body;
  throw unreadable(provider, what);
}

/** `body[key]` as an array, or ProviderError unavailable. */
export function expectArrayAt(body: unknown, key: string, provider: ProviderName, what: string): unknown[] {
  const items = arrayAt(body, key);
  if (items) return items;
  throw unreadable(provider, what);
}

function unreadable(provider: ProviderName, what: string): ProviderError {
  return new ProviderError({ kind: 'unavailable', message: `${PROVIDER_LABELS[provider]} answered ${what} with a body we cannot read` });
}
