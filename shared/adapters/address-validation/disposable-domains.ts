/**
 * The DisposableDomains port over `disposable-email-domains-js` (CC0-1.0): the list of the community
 * project disposable-email-domains/disposable-email-domains (~8,900 domains in 1.26.0; entries are added by pull
 * request and each release of the package republishes it), read once per process into a Set. A domain
 * counts when it or a parent domain is listed (`x.mailinator.com`).
 */
import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';
import type { DisposableDomains } from '../../ports/disposable-domains';

export class ListedDisposableDomains implements DisposableDomains {
  private listed: Set<string> | null = null;

  isDisposable(domain: string): boolean {
    this.listed ??= disposableEmailBlocklistSet();
    const labels = domain.toLowerCase().split('.');
    for (let i = 0; i < labels.length - 1; i++) {
      if (this.listed.has(labels.slice(i).join('.'))) return true;
    }
    return false;
  }
}
