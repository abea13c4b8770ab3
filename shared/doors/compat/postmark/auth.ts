/**
 * Postmark's authentication carrying our key: `X-Postmark-Server-Token: svc_...` (what the SDK's
 * ServerClient sends). Missing, or not shaped like one of our keys: Postmark's 401 with ErrorCode 10,
 * before any read. A well-formed key is then checked by the send core (or authenticateKeyHash), which
 * answers 401 for an unknown or revoked key the same way.
 */
import { apiKeySecretHash } from '#shared/usecases/access/authenticate';
import { POSTMARK_CODES, PostmarkFailure } from './errors';

export const SERVER_TOKEN_HEADER = 'x-postmark-server-token';

/** The hash of the key in the request's X-Postmark-Server-Token header, or Postmark's 401. */
export function serverTokenHash(header: string | undefined): string {
  const token = header?.trim();
  if (!token) {
    throw new PostmarkFailure(
      POSTMARK_CODES.badToken,
      'No Server API token was supplied in the HTTP headers: add the header X-Postmark-Server-Token with your API key (svc_...).',
      401,
    );
  }
  try {
    return apiKeySecretHash(token);
  } catch {
    throw new PostmarkFailure(
      POSTMARK_CODES.badToken,
      'The Server API token is not valid: X-Postmark-Server-Token takes one of your API keys (svc_...).',
      401,
    );
  }
}
