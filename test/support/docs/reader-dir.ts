/**
 * Where the docs test plays the reader: a folder that looks like a clone of the repository (a link to
 * each of its top-level entries) whose `.data` is the test stack's own data folder, so `npm run admin`
 * and `jq ... .data/stack.json` find the test's stack and never a developer's `npm start`; files a page
 * writes land there, not in the repository. One folder per page, so pages running side by side never
 * share a file (a cookie jar, `send.mjs`). The pages' fixed addresses (the API on 3000, the webhook inbox
 * on 3001, the SMTP relay on 2587, the MX on 2525) are rewritten to the test stack's.
 */
import { mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

export function makeReaderDir(dataDir: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mailservice-docs-reader-'));
  for (const entry of readdirSync(REPO_ROOT)) {
    if (entry === '.data' || entry === '.test-data') continue;
    symlinkSync(join(REPO_ROOT, entry), join(dir, entry));
  }
  symlinkSync(dataDir, join(dir, '.data'));
  return dir;
}

export interface StackAddresses {
  api_url: string;
  smtp: string;
  mx: string;
  webhook_inbox_url: string;
}

/** Rewrites the documented addresses to the stack's; fails on a documented port it does not know. */
export function addressRewriter(stack: StackAddresses): (text: string) => string {
  const smtpPort = stack.smtp.split(':').pop()!;
  const inbox = new URL(stack.webhook_inbox_url);
  const api = stack.api_url.replace(/\/$/, '');
  return (text) => {
    const rewritten = text
      .replace(/http:\/\/127\.0\.0\.1:3000\b/g, api)
      .replace(/https:\/\/localhost:3001\b/g, `https://localhost:${inbox.port}`)
      .replace(/\b127\.0\.0\.1:2587\b/g, stack.smtp)
      .replace(/\b127\.0\.0\.1:2525\b/g, stack.mx)
      .replace(/\bport: 2587\b/g, `port: ${smtpPort}`);
    const unmapped = /(?:127\.0\.0\.1|localhost):(3000|3001|2587|2525)\b|\bport:\s*(3000|3001|2587|2525)\b/.exec(rewritten);
    if (unmapped)
      throw new Error(
        `"${unmapped[0]}" is written in a way the docs test cannot point at its own stack (use http://127.0.0.1:3000, https://localhost:3001, 127.0.0.1:2587 or 127.0.0.1:2525)`,
      );
    return rewritten;
  };
}
