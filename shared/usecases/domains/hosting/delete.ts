/**
 * DELETE of a hosted host (a hosted MTA-STS policy, a link domain): the stored one marked `removing`, read again
 * when another write came first; 404 when there is none (or it is already being removed), 409 when writes kept
 * coming first. And its removal with the domain it belongs to (`removeWithItsDomain`), which never throws.
 */
import type { HostHosting } from '#shared/domain/domains/hosting/host-hosting';
import { logError } from '#shared/lib/log';

/** Writes lost to concurrent ones before the request answers 409. */
export const DELETE_ATTEMPTS = 5;

export async function markForRemoval<T extends HostHosting>(steps: {
  read(): Promise<{ hosting: T } | null>;
  startRemoval(hosting: T): Promise<T | null>;
  notFound(): Error;
  changedMeanwhile(): Error;
}): Promise<void> {
  for (let attempt = 1; attempt <= DELETE_ATTEMPTS; attempt++) {
    const stored = await steps.read();
    if (!stored || stored.hosting.status === 'removing') throw steps.notFound();
    if (await steps.startRemoval(stored.hosting)) return;
  }
  throw steps.changedMeanwhile();
}

/** Attempts at marking a deleted domain's host for removal while other writes come first. */
const WITH_DOMAIN_ATTEMPTS = 3;

/**
 * A host that goes with its domain (the domain deleted, or its receiving turned off): marked `removing` for the
 * domain-health task to delete its custom domain name and certificate (AWS quotas count them until then). Never
 * throws: the domain's change is made either way, and a host left behind is logged (an operator can DELETE it
 * through a new domain of the name, or in AWS). Another domain's host of the same name is left alone.
 */
export async function removeWithItsDomain<T extends HostHosting>(
  domainId: string,
  steps: { read(): Promise<{ hosting: T } | null>; startRemoval(hosting: T): Promise<T | null>; failure: string },
): Promise<void> {
  try {
    for (let attempt = 1; attempt <= WITH_DOMAIN_ATTEMPTS; attempt++) {
      const stored = await steps.read();
      if (!stored || stored.hosting.domain_id !== domainId || stored.hosting.status === 'removing') return;
      if (await steps.startRemoval(stored.hosting)) return;
    }
  } catch (error) {
    logError(steps.failure, error, { domain_id: domainId });
  }
}
