/** Runs `fn` and returns the error it throws (fails the test if it does not throw), with the SDK's HTTP status. */
export async function errorOf(fn: () => Promise<unknown>): Promise<Error & { $metadata?: { httpStatusCode?: number } }> {
  try {
    await fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}
