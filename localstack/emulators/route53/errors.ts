/**
 * Route 53's errors: an HTTP status and an error code (NoSuchHostedZone, InvalidChangeBatch, ...) with its
 * message, answered as Route 53's `<ErrorResponse>` (./encode.ts). A refusal of the DNS emulator that
 * reaches the request (a record set it does not take) is InvalidChangeBatch; anything else unexpected is
 * 500 InternalFailure.
 */
import { DnsRecordError } from '../dns/errors';

export class Route53Fault extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The fault a request failed with, as Route 53 answers it. */
export function faultOf(error: unknown): Route53Fault {
  if (error instanceof Route53Fault) return error;
  if (error instanceof DnsRecordError) return new Route53Fault(400, 'InvalidChangeBatch', error.message);
  return new Route53Fault(500, 'InternalFailure', (error as Error).message);
}
