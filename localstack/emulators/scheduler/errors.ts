/**
 * Scheduler API errors, in the AWS REST-JSON error format the server writes (`errorResponse`: status code,
 * `x-amzn-errortype` header, `{"Message": ...}` body), which the SDK maps to its exception classes,
 * so `err.name` is e.g. `ResourceNotFoundException` in callers.
 */

export type SchedulerErrorName =
  | 'ValidationException'
  | 'ResourceNotFoundException'
  | 'ConflictException'
  | 'InternalServerException'
  | 'UnknownOperationException';

const STATUS: Record<SchedulerErrorName, number> = {
  ValidationException: 400,
  ResourceNotFoundException: 404,
  ConflictException: 409,
  InternalServerException: 500,
  UnknownOperationException: 404,
};

export class SchedulerError extends Error {
  readonly status: number;
  constructor(
    readonly errorName: SchedulerErrorName,
    message: string,
  ) {
    super(message);
    this.status = STATUS[errorName];
  }
}

export const validation = (message: string): SchedulerError => new SchedulerError('ValidationException', message);
export const notFound = (message: string): SchedulerError => new SchedulerError('ResourceNotFoundException', message);
export const conflict = (message: string): SchedulerError => new SchedulerError('ConflictException', message);

/** AWS-style message for a member that violates a constraint. */
export function constraint(member: string, value: unknown, rule: string): SchedulerError {
  const shown = value === undefined || value === null ? 'null' : `'${String(value)}'`;
  return validation(`1 validation error detected: Value ${shown} at '${member}' failed to satisfy constraint: ${rule}`);
}

/** The REST-JSON error response of `err`: its status, the `x-amzn-errortype` header naming the exception, and the body. */
export function errorResponse(err: SchedulerError): { status: number; headers: Record<string, string>; body: { Message: string } } {
  return { status: err.status, headers: { 'x-amzn-errortype': err.errorName }, body: { Message: err.message } };
}
