/**
 * ARC sealing of a forwarded message (RFC 8617; docs/inbound.md, "Forwarding") with mailauth's `sealMessage`, the
 * library the MX listener checks mail with: an ARC-Seal, ARC-Message-Signature and ARC-Authentication-Results set,
 * instance 1 with `cv=none` (the forward starts the chain: the message's earlier ARC sets, whose signatures cover the
 * From it replaced, are removed: ../../domain/inbound/forwarded-message.ts), signed with the sending domain's own DKIM
 * key. Loaded on the first forward only (about 340 KiB of the inbound worker's bundle: infra/functions.ts).
 */
import type { ARCSealOptions } from 'mailauth';
import type { ArcSeal, ArcSealer } from '../../ports/arc-seal';

/**
 * The fields the ARC-Message-Signature covers: the message's own, never Message-ID nor Date, which SES replaces
 * with its own (https://docs.aws.amazon.com/ses/latest/dg/header-fields.html), so a seal over them would fail.
 */
export const ARC_SIGNED_FIELDS = [
  'from',
  'reply-to',
  'to',
  'cc',
  'subject',
  'in-reply-to',
  'references',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
];

/** The seal's three header fields, CRLF-ended, to put before the message's own (`raw` with CRLF line breaks). */
export const arcSealHeaders: ArcSealer = async (raw: Buffer, seal: ArcSeal): Promise<Buffer> => {
  const { sealMessage } = require('mailauth/lib/arc') as typeof import('mailauth/lib/arc');
  // What createSeal reads besides the typed options: the instance, the chain's validation and the results.
  const options: ARCSealOptions & { authResults: string; cv: 'none'; i: number } = {
    signingDomain: seal.signingDomain,
    selector: seal.selector,
    privateKey: seal.privateKeyPem,
    authResults: seal.authResults,
    cv: 'none',
    i: 1,
    // mailauth takes the list as one colon-separated string (an array is read as its default list).
    headerList: ARC_SIGNED_FIELDS.join(':') as never,
    signTime: new Date(),
  };
  return sealMessage(raw, options);
};
