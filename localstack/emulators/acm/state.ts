/**
 * The emulator's certificates, in memory and in `<dataDir>/certificates.json` (mode 0600: it holds the
 * issued certificates' private keys), rewritten whole at each change (../dns/hosted.ts's JsonState).
 */
import path from 'node:path';
import { JsonState } from '../dns/hosted';
import type { CertificateRecord } from './types';

export class AcmState {
  private readonly file: JsonState<{ version: 1; certificates: CertificateRecord[] }>;
  readonly certificates = new Map<string, CertificateRecord>();

  constructor(dataDir: string | undefined) {
    this.file = new JsonState(dataDir ? path.join(dataDir, 'certificates.json') : undefined, { version: 1, certificates: [] }, 0o600);
    for (const certificate of this.file.load().certificates) this.certificates.set(certificate.CertificateArn, certificate);
  }

  save(): void {
    this.file.save({ version: 1, certificates: [...this.certificates.values()] });
  }
}
