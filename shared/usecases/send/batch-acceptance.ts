/**
 * A batch's accept step, together (./send-batch.ts): each item goes through the send core as a single send
 * does, but its accept waits until every item the batch is running has reached its accept or ended; then the
 * waiting ones are written together (the store's acceptTogether: their items and address references in
 * BatchWriteItems of 25), and each goes on with its own answer. An item refused before its accept (a policy,
 * a bad field) just ends, and the others are written without it.
 *
 * Only the batch uses it: its items' ids are the send core's own (never SendOptions.emailId), which is what a
 * put without a condition needs (shared/adapters/store/emails/accept-together.ts).
 */
import type { EmailAcceptance } from '../../adapters/store/emails/accept';
import type { AcceptOutcome, AcceptRequest } from '../../adapters/store/emails/accept-request';
import type { SendDeps } from './send-deps';

interface Waiting {
  request: AcceptRequest;
  resolve: (outcome: AcceptOutcome) => void;
  reject: (error: unknown) => void;
}

export class BatchAcceptance {
  private waiting: Waiting[] = [];
  /** Items running (from item() until it ends), and of them those whose accept is being written. */
  private running = 0;
  private writing = 0;

  constructor(private readonly store: Pick<EmailAcceptance, 'acceptTogether' | 'create'>) {}

  /** The emails port for the items' sends (SendDeps.emails): accept waits for the others. */
  readonly emails: SendDeps['emails'] = {
    accept: (request) =>
      new Promise<AcceptOutcome>((resolve, reject) => {
        this.waiting.push({ request, resolve, reject });
        // After the current task's synchronous work: items started with it are counted as running first.
        queueMicrotask(() => this.writeWhenAllWait());
      }),
    create: (...args) => this.store.create(...args),
  };

  /** Runs one item's send: while it runs, the others' accepts wait for its own (or for its end). */
  async item<T>(send: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await send();
    } finally {
      this.running--;
      this.writeWhenAllWait();
    }
  }

  private writeWhenAllWait(): void {
    if (this.waiting.length === 0 || this.waiting.length < this.running - this.writing) return;
    const group = this.waiting;
    this.waiting = [];
    this.writing += group.length;
    void this.store.acceptTogether(group.map((one) => one.request)).then(
      (results) => {
        this.writing -= group.length;
        for (const [i, result] of results.entries()) {
          if (result.ok) group[i]!.resolve(result.outcome);
          else group[i]!.reject(result.error);
        }
      },
      (error: unknown) => {
        this.writing -= group.length;
        for (const one of group) one.reject(error);
      },
    );
  }
}
