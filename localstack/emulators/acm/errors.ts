/**
 * ACM's errors, answered in AWS JSON 1.1's shape (../aws-json.ts). Names and when each is raised: the
 * "Errors" section of each operation of the ACM API Reference, e.g.
 * https://docs.aws.amazon.com/acm/latest/APIReference/API_RequestCertificate.html#API_RequestCertificate_Errors,
 * .../API_DeleteCertificate.html#API_DeleteCertificate_Errors (all 400).
 */
import { AwsJsonError } from '../aws-json';

export type AcmErrorName =
  | 'InvalidArnException'
  | 'InvalidDomainValidationOptionsException'
  | 'InvalidParameterException'
  | 'LimitExceededException'
  | 'RequestInProgressException'
  | 'ResourceInUseException'
  | 'ResourceNotFoundException'
  | 'ValidationException';

export class AcmError extends AwsJsonError {
  constructor(name: AcmErrorName, message: string) {
    super(name, message);
  }
}
