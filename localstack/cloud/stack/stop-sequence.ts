/**
 * The local cloud's stop: each start-up step adds the stop of what it started, and they run in the
 * reverse order (the last started, first stopped), one at a time; a stop that fails is logged and the
 * others still run. A start that fails runs it too, so nothing is left running.
 */
export type Stop = () => Promise<void>;

export class StopSequence {
  private readonly stops: Stop[] = [];

  constructor(private readonly log: (message: string) => void) {}

  /** Stops run before those added earlier. */
  add(...stops: Stop[]): void {
    this.stops.push(...stops);
  }

  /** A stop run after every other (stack.json's removal: the stack is gone once everything has stopped). */
  addFinal(stop: Stop): void {
    this.stops.unshift(stop);
  }

  /** Runs every stop added so far, once. */
  async run(): Promise<void> {
    for (const stop of this.stops.splice(0).reverse()) await stop().catch((error) => this.log(`stop failed: ${(error as Error).message}`));
  }
}
