/**
 * The local cloud's own CAs made once per machine (localstack/cloud/tls/local-tls-cache.ts): every data folder
 * gets the cached CA's certificate and server key pair, a matching trio even when stacks start at once; a new
 * one after half its validity; never the CA's private key on disk. And the ACM emulator's CA, which signs what it
 * issues: one per checkout, its key in every data folder 0600, a folder's own CA kept.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cachedAcmCa, cachedLocalCa } from '#localstack/cloud/tls/local-tls-cache';
import { CertificateIssuer } from '#localstack/emulators/acm/issuer';
import { temporaryDir } from '../../support/temporary-dirs';

const DAY_MS = 24 * 3600 * 1000;
const dirs = { make: () => temporaryDir('local-tls-cache-') };

/** The trio in `dir` is consistent: the server certificate is signed by the CA and matches the server key. */
function checkTrio(dir: string): { ca: string; cert: string } {
  const ca = new X509Certificate(readFileSync(join(dir, 'ca.pem')));
  const cert = new X509Certificate(readFileSync(join(dir, 'server-cert.pem')));
  expect(cert.verify(ca.publicKey)).toBe(true);
  expect(cert.checkPrivateKey(createPrivateKey(readFileSync(join(dir, 'server-key.pem'))))).toBe(true);
  expect(cert.checkHost('localhost')).toBe('localhost');
  expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
  return { ca: ca.fingerprint256, cert: cert.fingerprint256 };
}

describe('cachedLocalCa', () => {
  it('gives every data folder the same CA, made once', async () => {
    const cacheDir = dirs.make();
    const options = { commonName: 'test local CA', validDays: 10, cacheDir };
    const first = dirs.make();
    const second = dirs.make();
    await cachedLocalCa(first, options);
    await cachedLocalCa(second, options);
    expect(checkTrio(second)).toEqual(checkTrio(first));
    expect(readdirSync(cacheDir)).toHaveLength(1);
  }, 30_000);

  it('leaves a data folder that already holds its CA as it is', async () => {
    const kept = dirs.make();
    await cachedLocalCa(kept, { commonName: 'first CA', validDays: 10, cacheDir: dirs.make() });
    const before = checkTrio(kept);
    // Another cache, another name: the folder's own CA still wins.
    await cachedLocalCa(kept, { commonName: 'second CA', validDays: 10, cacheDir: dirs.make() });
    expect(checkTrio(kept)).toEqual(before);
  }, 30_000);

  it('keeps the files a data folder needs, never the CA private key', async () => {
    const cacheDir = dirs.make();
    await cachedLocalCa(dirs.make(), { commonName: 'no key kept', validDays: 10, cacheDir });
    const [entry] = readdirSync(cacheDir);
    expect(readdirSync(join(cacheDir, entry!)).sort()).toEqual(['ca.pem', 'made.json', 'server-cert.pem', 'server-key.pem']);
  }, 30_000);

  it('makes a new CA once half its validity has passed, and one per name', async () => {
    const cacheDir = dirs.make();
    const now = Date.now();
    const at = (offsetDays: number, commonName = 'aging CA') => {
      const dir = dirs.make();
      return cachedLocalCa(dir, { commonName, validDays: 10, cacheDir, now: now + offsetDays * DAY_MS }).then(() => checkTrio(dir));
    };
    const made = await at(0);
    expect(await at(4.9)).toEqual(made);
    const remade = await at(5.1);
    expect(remade.ca).not.toBe(made.ca);
    expect((await at(0, 'another CA')).ca).not.toBe(remade.ca);
  }, 60_000);

  it('hands stacks starting at once a matching trio each', async () => {
    const cacheDir = dirs.make();
    const folders = [dirs.make(), dirs.make(), dirs.make()];
    await Promise.all(folders.map((dir) => cachedLocalCa(dir, { commonName: 'raced CA', validDays: 10, cacheDir })));
    for (const dir of folders) checkTrio(dir);
    // Whichever made it, one entry is left and no temporary folder.
    expect(readdirSync(cacheDir)).toHaveLength(1);
  }, 60_000);
});

describe('cachedAcmCa', () => {
  const acmCa = (dir: string) => ({
    cert: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    key: readFileSync(join(dir, 'ca-key.pem'), 'utf8'),
  });

  it('gives every data folder the same ACM CA, its key 0600, and the emulator issues certificates that chain to it', async () => {
    const cacheDir = dirs.make();
    const first = join(dirs.make(), 'acm');
    const second = join(dirs.make(), 'acm');
    await cachedAcmCa(first, { cacheDir });
    await cachedAcmCa(second, { cacheDir });
    expect(acmCa(second)).toEqual(acmCa(first));
    expect(statSync(join(second, 'ca-key.pem')).mode & 0o777).toBe(0o600);
    expect(readdirSync(cacheDir)).toHaveLength(1);
    const issuer = await CertificateIssuer.open(second, Date.now());
    const issued = await issuer.issue(['mta-sts.example.test'], Date.now());
    const ca = new X509Certificate(readFileSync(join(second, 'ca.pem')));
    expect(new X509Certificate(issued.certificatePem).verify(ca.publicKey)).toBe(true);
  }, 30_000);

  it('leaves a data folder that already holds its ACM CA as it is', async () => {
    const own = join(dirs.make(), 'acm');
    await CertificateIssuer.makeCa(own, Date.now());
    const before = acmCa(own);
    await cachedAcmCa(own, { cacheDir: dirs.make() });
    expect(acmCa(own)).toEqual(before);
  }, 30_000);
});
