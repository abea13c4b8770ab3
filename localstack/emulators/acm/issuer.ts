/**
 * The emulator's certificate authority, standing in for Amazon's: a CA key and certificate made on first
 * start and kept in `<caDir>/ca.pem` and `ca-key.pem` (0600), so certificates issued before a restart
 * still chain to what clients trust; and the issuance of a certificate for a certificate's names, RSA
 * 2048 with SHA-256 as ACM issues by default (KeyAlgorithm RSA_2048,
 * https://docs.aws.amazon.com/acm/latest/userguide/acm-certificate-characteristics.html), valid 395 days
 * ("Validity period: ... 395 days" on that page). Certificates are made with `selfsigned` (pure JS, as
 * ../../cloud/tls/local-tls.ts makes the webhook inbox's).
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from '../selfsigned-on-use';

export const VALIDITY_MS = 395 * 24 * 60 * 60 * 1000;
export const CA_VALIDITY_DAYS = 10 * 365;
const CA_VALIDITY_MS = CA_VALIDITY_DAYS * 24 * 60 * 60 * 1000;
/** The CA's files in its folder. */
export const CA_FILES = ['ca.pem', 'ca-key.pem'] as const;

export interface IssuedPems {
  certificatePem: string;
  privateKeyPem: string;
  /** The serial as ACM writes it: lower-case hex pairs joined by colons. */
  serial: string;
  notBefore: number;
  notAfter: number;
}

export class CertificateIssuer {
  private constructor(
    readonly caFile: string,
    private readonly ca: { key: string; cert: string },
  ) {}

  /** The CA of `caDir`, made there when there is none. */
  static async open(caDir: string, now: number): Promise<CertificateIssuer> {
    const caFile = path.join(caDir, 'ca.pem');
    const keyFile = path.join(caDir, 'ca-key.pem');
    if (!(existsSync(caFile) && existsSync(keyFile))) await CertificateIssuer.makeCa(caDir, now);
    return new CertificateIssuer(caFile, { cert: readFileSync(caFile, 'utf8'), key: readFileSync(keyFile, 'utf8') });
  }

  /** Makes a new CA in `caDir`: its certificate (ca.pem) and key (ca-key.pem, 0600). */
  static async makeCa(caDir: string, now: number): Promise<void> {
    mkdirSync(caDir, { recursive: true, mode: 0o700 });
    const made = await generate([{ name: 'commonName', value: 'Local ACM emulator CA' }], {
      keyType: 'rsa',
      keySize: 2048,
      algorithm: 'sha256',
      notBeforeDate: new Date(now - 24 * 3600 * 1000),
      notAfterDate: new Date(now + CA_VALIDITY_MS),
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      ],
    });
    writeFileSync(path.join(caDir, 'ca-key.pem'), made.private, { mode: 0o600 });
    writeFileSync(path.join(caDir, 'ca.pem'), made.cert);
  }

  get caPem(): string {
    return this.ca.cert;
  }

  /** A new key pair and a certificate for `names` (the first its subject's CN), signed by the CA, valid from `now`. */
  async issue(names: readonly string[], now: number): Promise<IssuedPems> {
    const notBefore = Math.floor(now / 1000) * 1000;
    const made = await generate([{ name: 'commonName', value: names[0]! }], {
      keyType: 'rsa',
      keySize: 2048,
      algorithm: 'sha256',
      notBeforeDate: new Date(notBefore),
      notAfterDate: new Date(notBefore + VALIDITY_MS),
      ca: this.ca,
      extensions: [
        { name: 'basicConstraints', cA: false, critical: true },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
        { name: 'subjectAltName', altNames: names.map((value) => ({ type: 2 as const, value })) },
      ],
    });
    const serialHex = new X509Certificate(made.cert).serialNumber.toLowerCase();
    const serial = (serialHex.length % 2 ? `0${serialHex}` : serialHex).match(/../g)!.join(':');
    return { certificatePem: made.cert, privateKeyPem: made.private, serial, notBefore, notAfter: notBefore + VALIDITY_MS };
  }
}
