/** Small conversions shared by the adapters: provider dates to ISO 8601, DNS host names, record types. */
import type { SourceDnsRecord } from '../../domain/imports/source';

/** Unix seconds (SendGrid `created`) to ISO 8601; null when not a usable number. */
export function isoFromUnixSeconds(value: unknown): string | null {
  const seconds = typeof value === 'string' ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return null;
  return new Date(seconds * 1000).toISOString();
}

/** Any date string JavaScript parses (ISO 8601 with offset, RFC 2822) to ISO 8601 UTC; null otherwise. */
export function isoFromDateText(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** Lower-case, no trailing dot. */
export function hostName(value: string): string {
  return value.trim().toLowerCase().replace(/\.+$/, '');
}

/** 'cname' / 'TXT' / 'mx' to the record type we keep, or null for others. */
export function dnsType(value: unknown): SourceDnsRecord['type'] | null {
  if (typeof value !== 'string') return null;
  const upper = value.trim().toUpperCase();
  return upper === 'TXT' || upper === 'CNAME' || upper === 'MX' ? upper : null;
}
