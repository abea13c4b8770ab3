/**
 * The operations of address validation (docs/deliverability.md, "Address validation"), served by the
 * suppressions group: they read the same lists, with the same grants (the table), plus DNS.
 */
import { MAX_VALIDATIONS_PER_BATCH, validateAddressesSchema, validateAddressSchema } from '#shared/domain/address-validation/schemas';
import { section } from '#shared/doors/openapi/operation';
import { validationListSchema, validationSchema } from './validation-schemas';

const exampleValidation = {
  object: 'validation' as const,
  email: 'jane@gmial.com',
  verdict: 'risky' as const,
  score: 0.7,
  reasons: ['possible_typo' as const],
  suggestion: 'jane@gmail.com',
  checks: {
    syntax: { valid: true, problem: null, smtputf8: false },
    domain: { result: 'mx' as const, hosts: ['mx.gmial.com'] },
    disposable: false,
    role: false,
    suppressed: { suppressed: false, reason: null },
  },
};

const invalidExample = {
  ...exampleValidation,
  email: 'info@no-mail.example',
  verdict: 'invalid' as const,
  score: 0.05,
  reasons: ['no_mail_host' as const, 'role_address' as const],
  suggestion: null,
  checks: { ...exampleValidation.checks, domain: { result: 'no_mail_host' as const, hosts: [] }, role: true },
};

const SCOPES = ['emails:send', 'suppressions:write', 'account:read'] as const;
const LIMIT =
  "Each address counts against the plan's hourly allowance (free 100, pro 2,000, scale 10,000, dedicated 50,000): 429 rate_limited with Retry-After past it.";

export const validationOps = section('suppressions', 'Validations', {
  validateAddress: {
    method: 'post',
    path: '/validations',
    summary: 'Validate an address',
    description: `Syntax, the domain's mail hosts (MX, else A/AAAA; a null MX), disposable domain, role address, this account's suppression lists and a typo suggestion, then a verdict (valid, risky, invalid) and a score. No mail is sent. ${LIMIT}`,
    auth: 'apiKey',
    scopes: [...SCOPES],
    body: { schema: validateAddressSchema, example: { email: 'jane@gmial.com' } },
    responses: { 200: { description: 'The verdict and its checks.', schema: validationSchema, example: exampleValidation } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'], 429: ['rate_limited'] },
  },
  validateAddresses: {
    method: 'post',
    path: '/validations/batch',
    summary: 'Validate up to 100 addresses',
    description: `\`emails\`: 1 to ${MAX_VALIDATIONS_PER_BATCH} addresses, each answered as POST /validations answers one, in order. ${LIMIT}`,
    auth: 'apiKey',
    scopes: [...SCOPES],
    body: { schema: validateAddressesSchema, example: { emails: ['jane@gmial.com', 'info@no-mail.example'] } },
    responses: {
      200: {
        description: 'One validation per address.',
        schema: validationListSchema,
        example: { validations: [exampleValidation, invalidExample] },
      },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'], 429: ['rate_limited'] },
  },
});
