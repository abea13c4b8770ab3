/**
 * Fake Mailgun API over one seeded account (MailgunSeed, ./seed.ts), as in the research notes: HTTP Basic
 * `api:<key>`, its error shapes (./errors.ts) and the routes of ./routes.ts. Paging URLs are absolute
 * and carry the mount prefix (./paging.ts).
 */
import type { FakeProvider } from '../types';
import { forbidden, notFound, rateLimited, unauthorized, unavailable } from './errors';
import { MAILGUN_ROUTES } from './routes';
import type { MailgunSeed } from './seed';

export const fakeMailgun: FakeProvider<MailgunSeed> = {
  provider: 'mailgun',
  credential(_path, headers) {
    const match = /^Basic\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
    if (!match?.[1]) return { kind: 'api', key: null };
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return { kind: 'api', key: colon > 0 && decoded.slice(0, colon) === 'api' ? decoded.slice(colon + 1) : null };
  },
  unauthorized,
  rateLimited,
  unavailable,
  forbidden,
  routes: MAILGUN_ROUTES,
  notFound,
};
