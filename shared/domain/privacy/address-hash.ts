/**
 * The one-way form of an address that an erasure keeps (docs/erasure.md, "The hash"): SHA-256 of the account
 * id and the normalised address. What names an address is indexed under it (address references) and an erased
 * address's suppressions are kept under it, so the send path finds them from the plain recipient with no
 * extra read. It confirms a guess of the address (the send check has to), it does not reveal one; the
 * account id in it makes one account's hashes useless for another's.
 */
import { createHash } from 'node:crypto';
import { normaliseEmail } from '../mail/address';

export function addressHash(accountId: string, email: string): string {
  return createHash('sha256')
    .update(`${accountId}:${normaliseEmail(email)}`)
    .digest('hex');
}
