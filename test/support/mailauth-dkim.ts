/**
 * DKIM verification with mailauth's dkimVerify (an implementation independent of ours), for tests: what
 * the service sends is verified with it, and the product's own verifier (shared/lib/dkim/verify.ts, the
 * domain check's probe) must answer as it does. Keys are looked up through the TXT lookup it is given
 * (e.g. a node:dns Resolver pointed at the local cloud's DNS), never the system resolver.
 */
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import type { DKIMResult } from 'mailauth';
import type { DkimVerification, ResolveTxt } from '#shared/lib/dkim/verify';

/**
 * One result per DKIM-Signature (a single `none` when the message is unsigned). mailauth's statuses,
 * made stricter where RFC 6376 says the signature fails for good:
 * - body hash mismatch (mailauth: neutral) -> `fail` ("body hash did not verify": the body was changed);
 * - no key record, NXDOMAIN or NODATA (mailauth: neutral "no key") -> `permerror` ("no key for signature");
 * - a record that is not a usable key: bad version, type or value (mailauth: neutral) -> `permerror`;
 * - a key shorter than 1024 bits (mailauth: policy) -> `permerror` ("weak key").
 * Other DNS failures stay `temperror`; a bad signature `fail`; expiry and the rest `neutral`.
 */
export async function verifyDkim(raw: Buffer, resolveTxt: ResolveTxt): Promise<DkimVerification[]> {
  const result = await dkimVerify(raw, { resolver: dkimResolver(resolveTxt) });
  return result.results.map(toVerification);
}

/** mailauth's resolver: TXT only; a record that looks like a DKIM key goes first (mailauth reads only the first). */
function dkimResolver(resolveTxt: ResolveTxt) {
  return async (name: string, rrtype: string): Promise<string[][]> => {
    if (rrtype !== 'TXT') throw Object.assign(new Error(`Unsupported DNS query ${rrtype} for ${name}`), { code: 'ENOTIMP' });
    const records = await resolveTxt(name);
    const looksLikeKey = (record: string[]): boolean => /(^|;)\s*p=/.test(record.join(''));
    return [...records.filter(looksLikeKey), ...records.filter((r) => !looksLikeKey(r))];
  };
}

const PERMERROR_COMMENTS: Record<string, string> = {
  'no key': 'no key for signature',
  'unknown key version': 'unknown key version',
  'unknown key type': 'unknown key type',
  'invalid public key': 'invalid public key',
};

function toVerification(r: DKIMResult): DkimVerification {
  const where = { ...(r.signingDomain ? { domain: r.signingDomain } : {}), ...(r.selector ? { selector: r.selector } : {}) };
  const comment = r.status.comment;
  const reason = comment ? { reason: comment } : {};
  switch (r.status.result) {
    case 'pass':
      return { status: 'pass', ...where };
    case 'fail':
      return { status: 'fail', ...where, ...reason };
    case 'none':
      return { status: 'none', ...reason };
    case 'temperror':
    case 'temperr':
      return { status: 'temperror', ...where, ...reason };
    case 'policy':
      return { status: 'permerror', ...where, reason: r.status.policy?.['dkim-rules'] === 'weak-key' ? 'weak key' : (comment ?? 'policy') };
    case 'permerror':
      return { status: 'permerror', ...where, ...reason };
    case 'neutral':
      if (comment === 'body hash did not verify') return { status: 'fail', ...where, reason: comment };
      if (comment && PERMERROR_COMMENTS[comment]) return { status: 'permerror', ...where, reason: PERMERROR_COMMENTS[comment] };
      return { status: 'neutral', ...where, ...reason };
    default:
      return { status: 'neutral', ...where, reason: comment ?? `unexpected result ${r.status.result}` };
  }
}
