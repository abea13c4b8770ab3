/**
 * Errors of the local IAM evaluator. Both mean "the local cloud cannot decide": they are thrown, never
 * turned into an allow (fail closed, loudly), and the SDK call that triggered them fails with them.
 */

/** A policy uses something the evaluator does not implement (an element, an operator, a variable) or is malformed. */
export class UnsupportedPolicyError extends Error {
  override name = 'UnsupportedPolicyError';
}

/** A request the evaluator cannot build or check: an unmapped SDK operation, an unknown action, an ARN of no known type, an unknown condition key. */
export class UnsupportedRequestError extends Error {
  override name = 'UnsupportedRequestError';
}

/** An SDK operation the operation map has no entry for: denied like AWS denies, with a message saying why. */
export class UnmappedOperationError extends UnsupportedRequestError {
  override name = 'UnmappedOperationError';
}
