/**
 * DELETE of a hosted host (a hosted MTA-STS policy, a link domain): the stored one marked `removing`, read again
 * when another write came first; 404 when there is none (or it is already being removed), 409 when writes kept
 * coming first.
 */
import type { HostHosting } from '#shared/domain/domains/hosting/host-hosting';

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
