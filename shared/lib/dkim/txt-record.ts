/**
 * Reading a published DKIM key record (RFC 6376 §3.6.1): a tag=value list such as
 * `v=DKIM1; k=rsa; p=MIIBIjAN...`. The value is the record's character-strings already joined.
 */

export interface DkimTxtRecord {
  v?: string;
  k?: string;
  p?: string;
  [tag: string]: string | undefined;
}

/**
 * Parses a tag list, tolerant of whitespace around tags, values and separators and of a trailing ';'.
 * Whitespace inside `p=` (a folded key) is removed. Returns null when the list is malformed: a part
 * without '=', an empty or invalid tag name, or a duplicate tag (RFC 6376 §3.2 makes the whole list
 * invalid). Tag names are case-sensitive, as the RFC says.
 */
export function parseDkimTxt(value: string): DkimTxtRecord | null {
  const record: DkimTxtRecord = {};
  for (const part of value.split(';')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const tag = part.slice(0, eq).trim();
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(tag) || Object.hasOwn(record, tag)) return null;
    const raw = part.slice(eq + 1);
    record[tag] = tag === 'p' ? raw.replace(/\s+/g, '') : raw.trim();
  }
  return record;
}

/**
 * True when the record publishes exactly this public key (base64 of the SPKI DER, whitespace ignored
 * on both sides) as a usable RSA DKIM key: `v`, if present, is DKIM1 and `k`, if present, is rsa (a
 * record a verifier would reject never counts as matching). An empty `p=` (a revoked key) never matches.
 */
export function publicKeyMatches(txt: string, publicKeyBase64: string): boolean {
  const record = parseDkimTxt(txt);
  if (!record) return false;
  if (record.v !== undefined && record.v !== 'DKIM1') return false;
  if (record.k !== undefined && record.k.toLowerCase() !== 'rsa') return false;
  const expected = publicKeyBase64.replace(/\s+/g, '');
  return expected !== '' && record.p === expected;
}
