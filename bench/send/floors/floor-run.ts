/**
 * One floor as the load generator drives it: a send made of numbered steps, each step's time summed over
 * the phase, and the attempts of the transactions it writes through the product's `transactWrite` (a
 * TransactionConflict retry is a second attempt).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Outcome } from '../../lib/load';

export interface FloorRun {
  steps: string[];
  /** Per step, ms summed over the sends since the last reset. */
  stepMs: number[];
  reset(): void;
  transactAttempts(): number;
  send(n: number): Promise<Outcome>;
}

/** Runs `work` as step `step`, adding its time to that step's total. */
export type TimedStep = <T>(step: number, work: () => Promise<T>) => Promise<T>;

/** A table handle for the product's `transactWrite` ({name, client}) whose client counts its calls. */
export type CountingTable = unknown;

export type FloorSend = (timed: TimedStep, counting: CountingTable, n: number) => Promise<void>;

export function floorRun(steps: string[], tableName: string, doc: DynamoDBDocumentClient, send: FloorSend): FloorRun {
  let attempts = 0;
  const counting = {
    name: tableName,
    client: {
      send: (command: unknown) => {
        attempts++;
        return doc.send(command as never);
      },
    },
  };
  const self: FloorRun = {
    steps,
    stepMs: steps.map(() => 0),
    reset: () => {
      self.stepMs = steps.map(() => 0);
      attempts = 0;
    },
    transactAttempts: () => attempts,
    send: async (n) => {
      const timed: TimedStep = async (step, work) => {
        const t0 = performance.now();
        try {
          return await work();
        } finally {
          self.stepMs[step]! += performance.now() - t0;
        }
      };
      await send(timed, counting, n);
      return { ok: true, label: 'ok' };
    },
  };
  return self;
}
