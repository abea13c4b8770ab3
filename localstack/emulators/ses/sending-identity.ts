/** Which email identity a send uses: SES looks for the sender's address, then its domain, then each parent domain. */
import type { SesStore } from './store';
import type { EmailIdentity } from './types';

/** The identity SES sends `address` as: the address itself, else its domain, else the closest parent domain. */
export function sendingIdentity(store: Pick<SesStore, 'getIdentity'>, address: string): EmailIdentity | undefined {
  const own = store.getIdentity(address);
  if (own) return own;
  const labels = (address.split('@')[1] ?? '').split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const found = store.getIdentity(labels.slice(i).join('.'));
    if (found) return found;
  }
  return undefined;
}
