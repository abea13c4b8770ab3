/**
 * Verify Token (GET /user/tokens/verify;
 * https://developers.cloudflare.com/api/resources/user/subresources/tokens/methods/verify/): a token that
 * got this far is one the fake accepts, so it is active. Its id is the same for every token.
 */
import { createHash } from 'node:crypto';
import { ok, type CloudflareReply } from '../envelope';

export function verifyToken(): CloudflareReply {
  return ok({ id: createHash('sha256').update('token').digest('hex').slice(0, 32), status: 'active' });
}
