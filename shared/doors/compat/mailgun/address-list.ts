/**
 * Mailgun's address fields (`to`, `cc`, `bcc`): each may be repeated and each value may hold several
 * addresses separated by commas (shared/domain/mail/address-list.ts splits one). Pure; addresses are
 * checked later by the send request's schema.
 */
import { splitAddressList } from '#shared/domain/mail/address-list';

/** Every value of a repeated field, split: the field's addresses in order. */
export function addressesOf(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap(splitAddressList);
}
