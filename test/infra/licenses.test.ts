/**
 * The production dependencies' licences (what the Lambda bundles, the relay task and the CLI and MCP server
 * ship): each in the list NOTICE names, and none with a NOTICE file of its own that NOTICE would then have
 * to carry (Apache-2.0, section 4(d)). Read from package-lock.json (every installed package with its
 * `license`, `dev` marking what only development needs) and node_modules.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

/**
 * The licences NOTICE lists; mailsplit's dual licence is used under MIT; CC0-1.0 (a public-domain
 * dedication) is disposable-email-domains-js's, a list of domain names (address validation's data).
 */
const ALLOWED = new Set(['Apache-2.0', 'MIT', 'MIT-0', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause', '0BSD', '(MIT OR EUPL-1.1+)', 'CC0-1.0']);

interface LockEntry {
  license?: string;
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
  /** A link to a folder of this repository (bin/, the commands' package): its own entry, under the folder's path, is checked. */
  link?: boolean;
}

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
const production = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && !entry.dev && !entry.devOptional && !entry.link);

test('the production dependencies are found (the lockfile lists them)', () => {
  const names = production.map(([path]) => path);
  for (const direct of ['node_modules/hono', 'node_modules/zod', 'node_modules/@modelcontextprotocol/sdk', 'node_modules/commander']) {
    expect(names).toContain(direct);
  }
});

test("every production dependency's licence is one NOTICE names", () => {
  const outside = production
    .filter(([, entry]) => !ALLOWED.has(entry.license ?? ''))
    .map(([path, entry]) => `${path}: ${entry.license ?? 'no licence'}`);
  expect(outside).toEqual([]);
});

test('no installed production dependency ships a NOTICE file (NOTICE would have to reproduce it)', () => {
  const installed = production.filter(([path]) => existsSync(join(ROOT, path)));
  expect(installed.length).toBeGreaterThan(100);
  const withNotice = installed
    .filter(([path]) => readdirSync(join(ROOT, path)).some((file) => /^notice(\.|$)/i.test(file)))
    .map(([path]) => path);
  expect(withNotice).toEqual([]);
});

test('LICENSE is the Apache License 2.0 that package.json names', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string };
  expect(pkg.license).toBe('Apache-2.0');
  const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
  expect(license).toContain('Apache License');
  expect(license).toContain('Version 2.0, January 2004');
  expect(license).toContain('END OF TERMS AND CONDITIONS');
});
