/**
 * The local cloud's own CAs (the webhook inbox's, the SMTP relay's, the ACM emulator's), made once per machine and
 * copied into each data folder: making one costs RSA key pairs (0.13-0.3 s of CPU each here) and loading
 * selfsigned (about 0.4 s), which was a quarter of an in-memory stack's start and is paid by every `npm start`,
 * every test file's stack of its own and every kill-test restart. The cache (node_modules/.cache/mailservice-local-tls/,
 * one folder per CA's name and validity) holds what a data folder gets. For the inbox and the relay that is the
 * CA's certificate and the server's key and certificate: their CA's key is never written, so nothing can sign with
 * it. The ACM emulator's CA signs the certificates it issues, so its entry holds its key (0600, in a 0700 folder):
 * one CA for every stack of the checkout, as Amazon's CAs sign every account's certificates. An entry is made
 * again once half its validity has passed. Stacks started at once may each make one: each writes a folder of its
 * own and renames it into place, and the loser takes the winner's, so a reader sees one CA's files.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CA_FILES as ACM_CA_FILES, CA_VALIDITY_DAYS as ACM_CA_VALIDITY_DAYS, CertificateIssuer } from '../../emulators/acm/issuer';
import { writeLocalCa, type LocalCa } from './local-tls';

const CACHE = resolve(__dirname, '..', '..', '..', 'node_modules', '.cache', 'mailservice-local-tls');
const DAY_MS = 24 * 3600 * 1000;
const FILES = ['ca.pem', 'server-key.pem', 'server-cert.pem'] as const;

export interface CachedCaOptions {
  commonName: string;
  validDays: number;
  /** Where the cache lives (tests); default node_modules/.cache/mailservice-local-tls. */
  cacheDir?: string;
  now?: number;
}

/** What a cache entry is: its name (hashed into its folder's), files, validity, and how it is made. */
interface EntrySpec {
  id: unknown[];
  files: readonly string[];
  validDays: number;
  make: (dir: string) => Promise<void>;
  cacheDir?: string;
  now?: number;
}

/** The entry of `spec` in the cache, made (again) when missing or past half its validity; its folder. */
async function cachedEntry(spec: EntrySpec): Promise<string> {
  const cacheDir = spec.cacheDir ?? CACHE;
  const now = spec.now ?? Date.now();
  const key = createHash('sha256').update(JSON.stringify(spec.id)).digest('hex').slice(0, 16);
  const entry = join(cacheDir, key);
  const fresh = (): boolean => {
    try {
      const { madeAt } = JSON.parse(readFileSync(join(entry, 'made.json'), 'utf8')) as { madeAt: number };
      return now - madeAt < (spec.validDays * DAY_MS) / 2 && spec.files.every((file) => existsSync(join(entry, file)));
    } catch {
      return false;
    }
  };
  if (fresh()) return entry;
  mkdirSync(cacheDir, { recursive: true });
  const made = join(cacheDir, `${key}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  mkdirSync(made, { mode: 0o700 });
  await spec.make(made);
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
 * `dir` with the files of a cache entry: those it already holds (all of them: a data folder keeps its own CA),
 * else the entry's, copied in (`secret` ones 0600; `dirMode` for a folder made here). The entry is made first when
 * the cache lacks it.
 */
async function filesFromCache(dir: string, spec: EntrySpec, secret: ReadonlySet<string>, dirMode?: number): Promise<void> {
  if (spec.files.every((file) => existsSync(join(dir, file)))) return;
  const entry = await cachedEntry(spec);
  mkdirSync(dir, { recursive: true, ...(dirMode === undefined ? {} : { mode: dirMode }) });
  for (const file of spec.files) writeFileSync(join(dir, file), readFileSync(join(entry, file)), secret.has(file) ? { mode: 0o600 } : {});
}

/**
 * The CA of the data folder `dir` (a server certificate for localhost, 127.0.0.1 and ::1): the one it already
 * holds, else the machine's cached CA named `commonName`, written into it.
 */
export async function cachedLocalCa(dir: string, options: CachedCaOptions): Promise<LocalCa> {
  const { commonName, validDays } = options;
  await filesFromCache(
    dir,
    {
      id: [commonName, validDays],
      files: FILES,
      validDays,
      make: async (made) => {
        await writeLocalCa(made, { commonName, validDays });
      },
      cacheDir: options.cacheDir,
      now: options.now,
    },
    new Set(['server-key.pem']),
  );
  return { caFile: join(dir, 'ca.pem'), keyFile: join(dir, 'server-key.pem'), certFile: join(dir, 'server-cert.pem') };
}

/**
 * The ACM emulator's CA in `caDir` (ca.pem, and ca-key.pem 0600): the one it already holds, else the machine's
 * cached one written into it (../../emulators/acm/issuer.ts opens it; it makes one only where there is none).
 */
export async function cachedAcmCa(caDir: string, options: { cacheDir?: string; now?: number } = {}): Promise<void> {
  const now = options.now ?? Date.now();
  await filesFromCache(
    caDir,
    {
      id: ['acm-ca', ACM_CA_VALIDITY_DAYS],
      files: ACM_CA_FILES,
      validDays: ACM_CA_VALIDITY_DAYS,
      make: (made) => CertificateIssuer.makeCa(made, now),
      cacheDir: options.cacheDir,
      now,
    },
    new Set(['ca-key.pem']),
    0o700,
  );
}
