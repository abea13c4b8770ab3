/**
 * The pages of GetDomainNames and GetApiMappings: `maxResults` and `nextToken` query parameters, answered
 * `{"items": [...], "nextToken"}` (https://docs.aws.amazon.com/apigatewayv2/latest/api-reference/domainnames.html#domainnames-http-methods).
 * The token is the emulator's own (an offset); a token it did not give is BadRequestException.
 */
import { badRequest } from './errors';

export function page<T>(items: readonly T[], query: URLSearchParams): { items: T[]; nextToken?: string } {
  const maxParam = query.get('maxResults');
  const max = maxParam === null ? items.length || 1 : Number(maxParam);
  if (!Number.isInteger(max) || max < 1) throw badRequest(`Invalid maxResults: ${maxParam}`);
  const token = query.get('nextToken');
  const start = token === null ? 0 : Number(Buffer.from(token, 'base64url').toString('utf8'));
  if (!Number.isInteger(start) || start < 0 || start > items.length) throw badRequest('Invalid nextToken');
  const next = start + max < items.length ? Buffer.from(String(start + max)).toString('base64url') : undefined;
  return { items: items.slice(start, start + max), ...(next ? { nextToken: next } : {}) };
}
