/**
 * BIMI (draft-brand-indicators-for-message-identification): `default._bimi.<domain>` TXT
 * `v=BIMI1; l=<https URL of an SVG Tiny PS logo>; a=<certificate>` shows the brand's logo beside its
 * mail at the receivers that support it, when DMARC is at quarantine or reject. Low impact. Pure.
 */
import type { Lookup } from '../evaluate';
import { dnsError, finding, parseTagList, recordsStartingWith, type HealthFinding } from './finding';

export function evaluateBimiHealth(input: { domain: string; lookup: Lookup }): HealthFinding[] {
  const name = `default._bimi.${input.domain}`;
  const { lookup } = input;
  const record = { type: 'TXT' as const, name, value: `v=BIMI1; l=https://${input.domain}/bimi/logo.svg` };
  if (lookup.kind === 'error') return [dnsError('bimi', name, lookup)];
  const records = recordsStartingWith(lookup, /^v=BIMI1\s*(;|$)/);
  if (records.length === 0) {
    return [
      finding(
        'bimi_missing',
        `${input.domain} publishes no BIMI record. Optional: with DMARC at quarantine or reject, receivers that support BIMI show your logo; publish it with the https URL of your SVG Tiny PS logo (Gmail and Apple also want a mark certificate, a=).`,
        record,
      ),
    ];
  }
  const tags = records.length === 1 ? parseTagList(records[0]!) : null;
  const logo = tags?.get('l');
  if (!tags || logo === undefined || (logo !== '' && !/^https:\/\//i.test(logo))) {
    return [
      finding(
        'bimi_invalid',
        `${name} must hold exactly one record "v=BIMI1; l=<https URL of the logo>"; receivers ignore what is there.`,
        record,
      ),
    ];
  }
  return [];
}
