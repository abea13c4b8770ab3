/**
 * DKIM health: the service signs every message with the domain's own key under its selector
 * (`d=<domain>`, so DKIM is always aligned for DMARC); the key must be published at
 * `<selector>._domainkey.<domain>` (a TXT, or a CNAME to one: the resolver follows it) exactly as given.
 * The key is the service's 2048-bit RSA key, so its length needs no check of its own. Pure.
 */
import type { Lookup } from '../evaluate';
import { parseDkimTxt, publicKeyMatches } from '#shared/lib/dkim/txt-record';
import { dnsError, finding, type HealthFinding } from './finding';

export function evaluateDkimHealth(input: { name: string; expectedValue: string; publicKey: string; lookup: Lookup }): HealthFinding[] {
  const { name, lookup } = input;
  const record = { type: 'TXT' as const, name, value: input.expectedValue };
  if (lookup.kind === 'error') return [dnsError('dkim', name, lookup)];
  if (lookup.kind === 'none')
    return [
      finding(
        'dkim_missing',
        `No DKIM key is published at ${name}: mail the service signs for the domain fails DKIM, and DMARC then rests on SPF alone. Publish it.`,
        record,
      ),
    ];
  if (lookup.values.some((value) => publicKeyMatches(value, input.publicKey))) return [];
  const revoked = lookup.values.some((value) => parseDkimTxt(value)?.p === '');
  return [
    finding(
      'dkim_key_mismatch',
      revoked
        ? `The DKIM record at ${name} has an empty p= (a revoked key): every signature fails. Publish the domain's key.`
        : `The record at ${name} is not the domain's DKIM key (another key, or not a DKIM key record): every signature fails. Replace it.`,
      record,
    ),
  ];
}
