/**
 * A throwaway CA and a server certificate signed by it, for local HTTPS receivers (the webhook inbox, test
 * receivers): pure JS (`selfsigned`), RSA (its EC path trips over two @peculiar/asn1-schema copies in this
 * dependency tree). The certificate is for localhost, 127.0.0.1, ::1 and `extraDnsNames`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '../../emulators/selfsigned-on-use';

export interface LocalCa {
  /** The CA certificate (PEM): what a client trusts. */
  caFile: string;
  /** The server's private key (PEM). */
  keyFile: string;
  /** The server certificate (PEM), signed by the CA. */
  certFile: string;
}

export async function writeLocalCa(
  dir: string,
  options: { commonName: string; validDays: number; extraDnsNames?: string[] },
): Promise<LocalCa> {
  const notBeforeDate = new Date(Date.now() - 24 * 3600 * 1000);
  const notAfterDate = new Date(Date.now() + options.validDays * 24 * 3600 * 1000);
  const ca = await generate([{ name: 'commonName', value: options.commonName }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          ...(options.extraDnsNames ?? []).map((value) => ({ type: 2 as const, value })),
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  const files: LocalCa = { caFile: join(dir, 'ca.pem'), keyFile: join(dir, 'server-key.pem'), certFile: join(dir, 'server-cert.pem') };
  writeFileSync(files.caFile, ca.cert);
  writeFileSync(files.keyFile, server.private, { mode: 0o600 });
  writeFileSync(files.certFile, server.cert);
  return files;
}
