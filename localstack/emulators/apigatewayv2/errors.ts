/**
 * API Gateway V2's errors: REST-JSON (https://smithy.io/2.0/aws/protocols/aws-restjson1-protocol.html),
 * an HTTP status, the error's name in `x-amzn-ErrorType` and a body `{"message"}` (NotFoundException also
 * `resourceType`). Names and statuses: the "Errors" of each operation of the API Gateway V2 API
 * Reference, e.g. https://docs.aws.amazon.com/apigatewayv2/latest/api-reference/domainnames.html#domainnames-errors
 * (BadRequestException 400, NotFoundException 404, ConflictException 409).
 */
export type ApiGatewayErrorName =
  | 'BadRequestException'
  | 'NotFoundException'
  | 'ConflictException'
  | 'UnknownOperationException'
  | 'InternalFailure';

const STATUS: Record<ApiGatewayErrorName, number> = {
  BadRequestException: 400,
  NotFoundException: 404,
  ConflictException: 409,
  UnknownOperationException: 404,
  InternalFailure: 500,
};

export class ApiGatewayFault extends Error {
  readonly status: number;
  constructor(
    readonly errorName: ApiGatewayErrorName,
    message: string,
    readonly resourceType?: string,
  ) {
    super(message);
    this.status = STATUS[errorName];
  }
}

export const badRequest = (message: string) => new ApiGatewayFault('BadRequestException', message);
