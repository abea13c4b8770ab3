/**
 * Reading DATA into memory for the relay and the MX listener, under two limits: the message's size
 * (counted to the end, so the refusal comes after the final dot as SMTP requires) and the bytes all
 * sessions of the process hold at once (`MemoryBudget`), so many large messages at once slow clients
 * down (451 4.3.1) instead of exhausting the task. A client that goes away before the final dot leaves
 * nothing held and gets no answer.
 */
import type { SMTPServerDataStream } from 'smtp-server';

/** Bytes of messages held in memory by one process, all sessions together. */
export class MemoryBudget {
  private used = 0;

  constructor(private readonly max: number) {}

  take(bytes: number): boolean {
    if (this.used + bytes > this.max) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}

export type Collected =
  /** The whole message; it stays counted in the budget until `release()` (call it once it is handed over). */
  { outcome: 'message'; message: Buffer; release(): void } | { outcome: 'too_large'; size: number } | { outcome: 'busy'; size: number };

export function collectMessage(
  stream: SMTPServerDataStream,
  limits: { maxBytes: number; budget: MemoryBudget },
  done: (collected: Collected) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let held = 0;
  let overBudget = false;
  const release = () => {
    limits.budget.give(held);
    held = 0;
    chunks.length = 0;
  };
  stream.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limits.maxBytes) return release(); // refused at the end: what was held goes now
    if (overBudget) return;
    if (!limits.budget.take(chunk.length)) {
      overBudget = true;
      return release();
    }
    chunks.push(chunk);
    held += chunk.length;
  });
  stream.on('error', release);
  stream.on('close', () => {
    if (!stream.readableEnded) release();
  });
  stream.on('end', () => {
    if (stream.sizeExceeded || size > limits.maxBytes) {
      release();
      return done({ outcome: 'too_large', size });
    }
    if (overBudget) {
      release();
      return done({ outcome: 'busy', size });
    }
    const message = Buffer.concat(chunks, size);
    chunks.length = 0; // the copy is the message now (still counted until released)
    done({ outcome: 'message', message, release });
  });
}
