/**
 * Fake SendGrid Web API v3 over one seeded account (SendgridSeed, ./seed.ts), as in the research notes:
 * Bearer auth, its error shapes (./errors.ts), X-RateLimit-Limit/Remaining/Reset on every answer
 * (./rate-limit.ts), and the routes of ./routes.ts.
 */
import type { FakeProvider } from '../types';
import { forbidden, notFound, rateLimited, unauthorized, unavailable } from './errors';
import { withRateLimitHeaders } from './rate-limit';
import { SENDGRID_ROUTES } from './routes';
import type { SendgridSeed } from './seed';

export const fakeSendgrid: FakeProvider<SendgridSeed> = {
  provider: 'sendgrid',
  credential(_path, headers) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
    return { kind: 'api', key: match?.[1] ?? null };
  },
  unauthorized,
  rateLimited,
  unavailable,
  forbidden,
  routes: SENDGRID_ROUTES,
  notFound,
  decorate: withRateLimitHeaders,
};
