/** Port: the time the use cases read (the service's clock: shared/adapters/clock.ts; tests pass a fixed one). */
export interface Clock {
  now(): Date;
}
