/**
 * The fake Cloudflare API's shapes: its zones (kept in zones.json) and a DNS record as the API answers it
 * (each value of one of the DNS emulator's record sets is one record: ./records.ts).
 */
import type { DnsRecordType } from '../dns/types';

export interface CloudflareZone {
  id: string;
  name: string;
  status: 'active';
  created_on: string;
}

export interface RecordView {
  id: string;
  zone_id: string;
  zone_name: string;
  name: string;
  type: DnsRecordType;
  content: string;
  priority?: number;
  proxiable: boolean;
  proxied: boolean;
  ttl: number;
  comment: string | null;
  tags: string[];
  created_on: string;
  modified_on: string;
}
