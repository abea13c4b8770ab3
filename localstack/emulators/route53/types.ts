/**
 * The Route 53 emulator's own records: hosted zones (kept in zones.json) and the changes it has answered
 * (memory only). Record sets are not here: a zone's are the DNS emulator's (./zone-sets.ts).
 */

export interface HostedZone {
  id: string;
  /** Canonical: lower case, no trailing dot. */
  name: string;
  caller_reference: string;
  comment: string | null;
  private_zone: boolean;
  created_at: string;
}

/** A change (a zone's creation, a ChangeResourceRecordSets batch), as GetChange answers it. */
export interface Change {
  id: string;
  submitted_at: string;
  comment: string | null;
  /** When GetChange starts answering INSYNC (epoch ms). */
  syncAtMs: number;
}
