/**
 * The local cloud's own CAs (the webhook inbox's, the SMTP relay's), made once per machine and copied into
 * each data folder: making one costs two RSA key pairs (0.13-0.3 s of CPU each here) and loading selfsigned
 * (about 0.4 s), which was a quarter of an in-memory stack's start and is paid by every `npm start`, every
 * test file's stack of its own and every kill-test restart. The cache (node_modules/.cache/mailservice-local-tls/,
 * one folder per CA's name and validity) holds what a data folder gets: the CA's certificate, the server's
 * key and certificate; the CA's key is never written, so nothing can sign with the cached CA. An entry is made
 * again once half its validity has passed. Stacks started at once may each make one: each writes a folder of
 * its own and renames it into place, and the loser takes the winner's, so a reader sees one CA's three files.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeLocalCa, type LocalCa } from './local-tls';

const CACHE = resolve(__dirname, '..', '..', 'node_modules', '.cache', 'mailservice-local-tls');
const DAY_MS = 24 * 3600 * 1000;
const FILES = ['ca.pem', 'server-key.pem', 'server-cert.pem'] as const;

export interface CachedCaOptions {
  commonName: string;
  validDays: number;
  /** Where the cache lives (tests); default node_modules/.cache/mailservice-local-tls. */
  cacheDir?: string;
  now?: number;
}

/** The entry of `options` in the cache, made (again) when missing or past half its validity; its folder. */
async function cachedEntry(options: CachedCaOptions): Promise<string> {
  const cacheDir = options.cacheDir ?? CACHE;
  const now = options.now ?? Date.now();
  const key = createHash('sha256')
    .update(JSON.stringify([options.commonName, options.validDays]))
    .digest('hex')
    .slice(0, 16);
  const entry = join(cacheDir, key);
  const fresh = (): boolean => {
    try {
      const { madeAt } = JSON.parse(readFileSync(join(entry, 'made.json'), 'utf8')) as { madeAt: number };
      return now - madeAt < (options.validDays * DAY_MS) / 2 && FILES.every((file) => existsSync(join(entry, file)));
    } catch {
      return false;
    }
  };
  if (fresh()) return entry;
  mkdirSync(cacheDir, { recursive: true });
  const made = join(cacheDir, `${key}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  mkdirSync(made, { mode: 0o700 });
  await writeLocalCa(made, { commonName: options.commonName, validDays: options.validDays });
  writeFileSync(join(made, 'made.json'), JSON.stringify({ madeAt: now }));
  if (!fresh()) rmSync(entry, { recursive: true, force: true });
  try {
    renameSync(made, entry);
  } catch {
    // Another stack put its entry in place first: that one is used.
    rmSync(made, { recursive: true, force: true });
  }
  return entry;
}

/**
 * The CA of the data folder `dir` (a server certificate for localhost, 127.0.0.1 and ::1): the one it already
 * holds, else the machine's cached CA named `commonName`, written into it.
 */
export async function cachedLocalCa(dir: string, options: CachedCaOptions): Promise<LocalCa> {
  const files: LocalCa = { caFile: join(dir, 'ca.pem'), keyFile: join(dir, 'server-key.pem'), certFile: join(dir, 'server-cert.pem') };
  if ([files.caFile, files.keyFile, files.certFile].every(existsSync)) return files;
  const entry = await cachedEntry(options);
  mkdirSync(dir, { recursive: true });
  writeFileSync(files.caFile, readFileSync(join(entry, 'ca.pem')));
  writeFileSync(files.keyFile, readFileSync(join(entry, 'server-key.pem')), { mode: 0o600 });
  writeFileSync(files.certFile, readFileSync(join(entry, 'server-cert.pem')));
  return files;
}
