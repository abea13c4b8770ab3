/**
 * An automation's send steps within its maker's reach (docs/automations.md, "Reach"): a key limited to
 * some sending domains may not save a step whose `from` is written with another domain (403
 * domain_not_allowed naming the step). A `from` whose domain is a placeholder, a bare local part (the
 * tenant's default_from_domain) or a template's sender is known only at run time: the run's sends are
 * refused there (the run keeps the same reach). Pure.
 */
import { domainsOutsideReach } from '../api-keys/reach';
import type { AppError } from '../errors';
import type { Step } from './automation';

/** The domain a `from` names as written (lower-cased), or null when it is not known before the run. */
export function literalFromDomain(from: string): string | null {
  const at = from.lastIndexOf('@');
  if (at < 0) return null;
  const domain = from
    .slice(at + 1)
    .replace(/>\s*$/, '')
    .trim()
    .toLowerCase();
  return domain === '' || domain.includes('{{') || domain.includes('}}') ? null : domain;
}

/** The 403 for the first send step whose written `from` is outside `allowed` (null: within, or unlimited). */
export function stepOutsideReach(steps: readonly Step[], allowed: readonly string[] | null): AppError | null {
  if (allowed === null) return null;
  for (const [index, step] of steps.entries()) {
    if (step.type !== 'send_email' || step.from === undefined) continue;
    const domain = literalFromDomain(step.from);
    if (domain !== null && !allowed.includes(domain))
      return domainsOutsideReach([domain], allowed, `Your key (step ${step.key})`, `steps.${index}.from`);
  }
  return null;
}
