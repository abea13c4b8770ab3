/**
 * The AWS SDK's standard retry strategy, without its retries of throttling errors: for a caller that paces
 * itself and holds the work when the service throttles (the send worker, shared/usecases/delivery/pace.ts).
 * The SDK would otherwise send SES's 429 "Maximum sending rate exceeded" again within a second or two,
 * outside the pace, and each of those tries is one more send over the rate. Network errors, timeouts and
 * 5xx are still retried as the SDK does (https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html).
 *
 * The SDK's retry middleware gives up and throws the last error when refreshRetryTokenForRetry throws
 * (its RetryStrategyV2 contract, @smithy/util-retry).
 */
import { StandardRetryStrategy } from '@smithy/util-retry';

type Token = Parameters<StandardRetryStrategy['refreshRetryTokenForRetry']>[0];
type ErrorInfo = Parameters<StandardRetryStrategy['refreshRetryTokenForRetry']>[1];

export class RetryUnlessThrottled {
  private readonly standard: StandardRetryStrategy;

  constructor(maxAttempts: number) {
    this.standard = new StandardRetryStrategy(maxAttempts);
  }

  acquireInitialRetryToken(retryTokenScope: string): Promise<Token> {
    return this.standard.acquireInitialRetryToken(retryTokenScope);
  }

  refreshRetryTokenForRetry(token: Token, errorInfo: ErrorInfo): Promise<Token> {
    if (errorInfo.errorType === 'THROTTLING') return Promise.reject(new Error('throttling is left to the caller, which paces and holds'));
    return this.standard.refreshRetryTokenForRetry(token, errorInfo);
  }

  recordSuccess(token: Token): void {
    this.standard.recordSuccess(token);
  }
}
