/**
 * Ports: the ARC seal of a forwarded message (RFC 8617; mailauth in shared/adapters/received-mail/arc-sealer.ts):
 * the ARC-Seal, ARC-Message-Signature and ARC-Authentication-Results fields to put before a CRLF message's own.
 */
export interface ArcSeal {
  signingDomain: string;
  selector: string;
  privateKeyPem: string;
  /** The ARC-Authentication-Results value (shared/domain/inbound/arc-results.ts). */
  authResults: string;
}

export type ArcSealer = (raw: Buffer, seal: ArcSeal) => Promise<Buffer>;
