/**
 * KMS API errors. KMS speaks AWS JSON 1.1, whose errors are an HTTP status and a body
 * `{"__type": "<ErrorName>", "message": "..."}`; the SDK builds its own exception classes from `__type`
 * (`NotFoundException`, `InvalidCiphertextException`...), so callers see `err.name` exactly as against AWS.
 * Protocol: https://smithy.io/2.0/aws/protocols/aws-json-1_1-protocol.html (Operation error serialization).
 * Error names and when each is raised: the "Errors" section of each operation in the KMS API reference,
 * https://docs.aws.amazon.com/kms/latest/APIReference/CommonErrors.html and e.g.
 * https://docs.aws.amazon.com/kms/latest/APIReference/API_Decrypt.html#API_Decrypt_Errors.
 * All are client errors (400) except KMSInternalException (500), as the API reference lists them.
 */
import { AwsJsonError } from '../aws-json';

export type KmsErrorName =
  | 'AlreadyExistsException'
  | 'DisabledException'
  | 'DryRunOperationException'
  | 'IncorrectKeyException'
  | 'InvalidAliasNameException'
  | 'InvalidArnException'
  | 'InvalidCiphertextException'
  | 'InvalidKeyUsageException'
  | 'InvalidMarkerException'
  | 'KMSInternalException'
  | 'KMSInvalidStateException'
  | 'LimitExceededException'
  | 'MalformedPolicyDocumentException'
  | 'NotFoundException'
  | 'SerializationException'
  | 'UnknownOperationException'
  | 'UnsupportedOperationException'
  | 'ValidationException';

export class KmsError extends AwsJsonError {
  constructor(errorName: KmsErrorName, message: string) {
    super(errorName, message, errorName === 'KMSInternalException' ? 500 : 400);
  }
}

/**
 * A member that violates its constraint, in the words AWS uses for its JSON protocols, e.g.
 * `1 validation error detected: Value at 'plaintext' failed to satisfy constraint: Member must have length
 * less than or equal to 4096` (a real KMS answer, quoted in https://github.com/adenot/hiera-eyaml-kms/issues/8).
 * Member paths are the member names with a lower-case first letter, as KMS writes them.
 */
export function constraint(member: string, value: unknown, rule: string, showValue = true): KmsError {
  const path = member.charAt(0).toLowerCase() + member.slice(1);
  const shown = value === undefined || value === null ? ' null' : showValue ? ` '${String(value)}'` : '';
  return new KmsError(
    'ValidationException',
    `1 validation error detected: Value${shown} at '${path}' failed to satisfy constraint: ${rule}`,
  );
}

/** A member of the wrong JSON type: AWS JSON protocols answer SerializationException before validating. */
export function wrongType(member: string, expected: string): KmsError {
  return new KmsError('SerializationException', `${member} must be ${expected}.`);
}

/**
 * The answer to a failed request: an AwsJsonError (a KmsError, or the protocol's SerializationException from
 * ../aws-json.ts) with its status and `{"__type", "message"}`; anything else a 500 KMSInternalException.
 */
export function errorResponse(err: unknown): { status: number; payload: { __type: string; message: string } } {
  const e = err instanceof AwsJsonError ? err : new KmsError('KMSInternalException', 'Internal error in the local KMS emulator.');
  return { status: e.status, payload: { __type: e.errorName, message: e.message } };
}
