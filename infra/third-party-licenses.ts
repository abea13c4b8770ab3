/**
 * The licence notices of the packages a bundle contains. The bundles strip comments (`legalComments: 'none'`:
 * smaller Lambdas), yet MIT, BSD, ISC and Apache-2.0 ask that their copyright and licence notice travel with
 * the code: so each function's directory (its Lambda asset, the relay's image context) gets
 * `THIRD_PARTY_LICENSES.txt` with each bundled package's name, version, licence and licence file, read from
 * esbuild's metafile (the inputs of the bundle's output: a package the build read and shook out whole is not
 * listed) and the package's own directory. NOTICE says so.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const THIRD_PARTY_LICENSES_FILE = 'THIRD_PARTY_LICENSES.txt';

/** The package directories (relative to the project root) that bundled inputs came from, outermost package per path. */
export function bundledPackageDirs(inputs: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const input of inputs) {
    const normalised = input.split(path.sep).join('/');
    const at = normalised.lastIndexOf('node_modules/');
    if (at < 0) continue;
    const rest = normalised.slice(at + 'node_modules/'.length).split('/');
    const name = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    if (name) dirs.add(`${normalised.slice(0, at)}node_modules/${name}`);
  }
  return [...dirs].sort();
}

interface PackageNotice {
  name: string;
  version: string;
  license: string;
  text: string | null;
}

function noticeOf(rootDir: string, dir: string): PackageNotice | null {
  const manifest = path.join(rootDir, dir, 'package.json');
  if (!fs.existsSync(manifest)) return null;
  const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; version?: string; license?: unknown };
  const file = fs.readdirSync(path.join(rootDir, dir)).find((entry) => /^(licen[cs]e|copying)(\.|$)/i.test(entry));
  return {
    name: pkg.name ?? dir,
    version: pkg.version ?? '',
    license: typeof pkg.license === 'string' ? pkg.license : 'see its licence file',
    text: file ? fs.readFileSync(path.join(rootDir, dir, file), 'utf8').trim() : null,
  };
}

/** The file's text for a bundle built from `inputs` (metafile input paths, relative to `rootDir`). */
export function thirdPartyLicenses(rootDir: string, inputs: readonly string[]): string {
  const notices = bundledPackageDirs(inputs)
    .map((dir) => noticeOf(rootDir, dir))
    .filter((notice): notice is PackageNotice => notice !== null);
  const seen = new Set<string>();
  const unique = notices.filter((notice) => !seen.has(`${notice.name}@${notice.version}`) && seen.add(`${notice.name}@${notice.version}`));
  const header = `Third-party software in this bundle (${unique.length} packages), with their licences.\n`;
  return [
    header,
    ...unique.map(
      (notice) =>
        `${'='.repeat(78)}\n${notice.name}@${notice.version} (${notice.license})\n${'='.repeat(78)}\n${notice.text ?? `(no licence file in the package; its package.json says ${notice.license})`}\n`,
    ),
  ].join('\n');
}
