/**
 * Fake Postmark API over one seeded server + account (PostmarkSeed, ./seed.ts), as in the research notes:
 * X-Postmark-Server-Token for server resources, X-Postmark-Account-Token for /domains (and /servers,
 * /senders); its error shapes (./errors.ts) and the routes of ./routes.ts. Query parameter names are
 * matched without regard to case.
 */
import type { FakeProvider } from '../types';
import { forbidden, notFound, rateLimited, unauthorized, unavailable } from './errors';
import { POSTMARK_ROUTES } from './routes';
import type { PostmarkSeed } from './seed';

const ACCOUNT_PATHS = /^\/(domains|servers|senders)(\/|$)/;

export const fakePostmark: FakeProvider<PostmarkSeed> = {
  provider: 'postmark',
  credential(path, headers) {
    const kind = ACCOUNT_PATHS.test(path) ? 'account' : 'api';
    const raw = headers[kind === 'account' ? 'x-postmark-account-token' : 'x-postmark-server-token'];
    const key = typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : null;
    return { kind, key };
  },
  unauthorized,
  rateLimited,
  unavailable,
  forbidden,
  routes: POSTMARK_ROUTES,
  notFound,
};
