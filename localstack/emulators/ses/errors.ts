/**
 * SESv2 errors in the REST-JSON shape the AWS SDK deserializes.
 *
 * The SDK (loadRestJsonErrorCode) reads the code from the `x-amzn-errortype` header first, then the
 * body's `code`, then `__type`; the message from the body's `message`. We send all of them, so
 * `err.name` is the code and `err.message` the message. The SES v1 Query API, which the emulator does not
 * emulate, gets its XML error document (queryErrorXml).
 */
import { escapeHtml } from './html-escape';

export type SesErrorCode =
  | 'BadRequestException'
  | 'NotFoundException'
  | 'AlreadyExistsException'
  | 'MessageRejected'
  | 'MailFromDomainNotVerifiedException'
  | 'SendingPausedException'
  | 'AccountSuspendedException'
  | 'TooManyRequestsException'
  | 'LimitExceededException'
  | 'UnknownOperationException'
  | 'SerializationException'
  | 'InternalServiceErrorException'
  | 'InvalidNextTokenException';

const STATUS: Record<SesErrorCode, number> = {
  BadRequestException: 400,
  NotFoundException: 404,
  AlreadyExistsException: 400,
  MessageRejected: 400,
  MailFromDomainNotVerifiedException: 400,
  SendingPausedException: 400,
  AccountSuspendedException: 400,
  // Throttling: "Maximum sending rate exceeded." / "Daily message quota exceeded." (account-limits.ts).
  TooManyRequestsException: 429,
  LimitExceededException: 400,
  UnknownOperationException: 404,
  SerializationException: 400,
  InternalServiceErrorException: 500,
  InvalidNextTokenException: 400,
};

export class SesError extends Error {
  readonly code: SesErrorCode;
  readonly status: number;

  constructor(code: SesErrorCode, message: string) {
    super(message);
    this.name = code;
    this.code = code;
    this.status = STATUS[code];
  }
}

export const badRequest = (message: string): SesError => new SesError('BadRequestException', message);
export const notFound = (message: string): SesError => new SesError('NotFoundException', message);
export const alreadyExists = (message: string): SesError => new SesError('AlreadyExistsException', message);

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The HTTP response for an error; anything that is not a SesError becomes a 500. */
export function errorResponse(err: unknown, requestId: string): ErrorResponse {
  const e = err instanceof SesError ? err : new SesError('InternalServiceErrorException', err instanceof Error ? err.message : String(err));
  return {
    status: e.status,
    headers: {
      'content-type': 'application/json',
      'x-amzn-errortype': e.code,
      'x-amzn-requestid': requestId,
    },
    body: JSON.stringify({ __type: e.code, code: e.code, message: e.message }),
  };
}

/** The SES v1 Query API's error document (SES answers its XML API so), for an action the emulator refuses. */
export function queryErrorXml(code: string, message: string, requestId: string): string {
  return `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${escapeHtml(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
}
