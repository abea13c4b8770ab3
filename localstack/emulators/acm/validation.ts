/**
 * A certificate's way from PENDING_VALIDATION: ISSUED once DNS shows the validation record of every one
 * of its names (./dns-check.ts), with a new key pair and a certificate from the emulator's CA
 * (./issuer.ts); VALIDATION_TIMED_OUT when still pending 72 hours after the request ("If ACM is not able
 * to validate the domain within 72 hours from the time it generates a CNAME value for you, ACM changes
 * the certificate status to Validation timed out",
 * https://docs.aws.amazon.com/acm/latest/userguide/dns-validation.html). ACM checks periodically; here a
 * pending certificate is brought up to date when an operation (or the local cloud) looks at it, one check
 * at a time per certificate.
 */
import type { DnsServers } from '../dns-servers';
import { recordIsPublished } from './dns-check';
import type { CertificateIssuer } from './issuer';
import type { AcmState } from './state';
import type { CertificateRecord } from './types';
import { validationRecord } from './validation-records';

export const VALIDATION_WINDOW_MS = 72 * 60 * 60 * 1000;

export interface ValidationContext {
  state: AcmState;
  issuer: CertificateIssuer;
  accountId: string;
  /** The DNS servers validation records are looked up at (../dns-servers.ts); undefined: the system's. */
  resolver?: DnsServers;
  now(): number;
  log(msg: string): void;
}

export class CertificateValidation {
  private readonly checking = new Map<string, Promise<CertificateRecord>>();

  constructor(private readonly ctx: ValidationContext) {}

  /** The certificate as it stands after a check of DNS, when it was pending. */
  refresh(record: CertificateRecord): Promise<CertificateRecord> {
    if (record.Status !== 'PENDING_VALIDATION') return Promise.resolve(record);
    const running = this.checking.get(record.CertificateArn);
    if (running) return running;
    const check = this.check(record).finally(() => this.checking.delete(record.CertificateArn));
    this.checking.set(record.CertificateArn, check);
    return check;
  }

  private async check(record: CertificateRecord): Promise<CertificateRecord> {
    const { ctx } = this;
    const now = ctx.now();
    if (now - record.CreatedAt >= VALIDATION_WINDOW_MS) return this.settle(record, { Status: 'VALIDATION_TIMED_OUT' });
    const found = await Promise.all(
      record.SubjectAlternativeNames.map((name) => recordIsPublished(validationRecord(ctx.accountId, name), ctx.resolver)),
    );
    if (!found.every(Boolean)) return record;
    const pems = await ctx.issuer.issue(record.SubjectAlternativeNames, ctx.now());
    return this.settle(record, {
      Status: 'ISSUED',
      IssuedAt: pems.notBefore,
      NotBefore: pems.notBefore,
      NotAfter: pems.notAfter,
      Serial: pems.serial,
      certificatePem: pems.certificatePem,
      privateKeyPem: pems.privateKeyPem,
    });
  }

  /** Stores the change unless the certificate was deleted meanwhile. */
  private settle(record: CertificateRecord, change: Partial<CertificateRecord>): CertificateRecord {
    const current = this.ctx.state.certificates.get(record.CertificateArn);
    if (current !== record) return current ?? record;
    Object.assign(record, change);
    this.ctx.state.save();
    this.ctx.log(`acm: ${record.CertificateArn} (${record.DomainName}) ${record.Status}`);
    return record;
  }
}
