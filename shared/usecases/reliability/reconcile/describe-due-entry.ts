/**
 * A past-due entry as the reconciler's log lines name it: its kind and the ids of its item (an entry
 * whose handling failed is logged, and stays due for the next pass).
 */
import type { DueEntry } from '#shared/adapters/store/due-work';

export function describeDueEntry(entry: DueEntry): string {
  switch (entry.kind) {
    case 'EMAIL':
      return `EMAIL ${entry.emailId}`;
    case 'DELIVERY':
      return `DELIVERY ${entry.webhookId} ${entry.deliveryId}`;
    case 'RUN':
      return `RUN ${entry.runId}`;
    case 'DOMAIN':
      return `DOMAIN ${entry.domainId}`;
  }
}
