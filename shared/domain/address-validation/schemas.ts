/** Requests and the public answer of address validation (POST /validations, POST /validations/batch). */
import * as z from 'zod';
import { tenantParam } from '../tenants/schemas';
import type { AddressChecks, Assessment } from './verdict';

/** Addresses one POST /validations/batch may carry (as a suppressions batch's page, Resend's batch size). */
export const MAX_VALIDATIONS_PER_BATCH = 100;

/** An address as given: any string up to 320 characters (the syntax check says what is wrong with it). */
const addressInput = z
  .string({ error: 'email must be a string' })
  .max(320, { message: 'email is longer than any address can be (320 characters)' });

const tenantField = tenantParam
  .optional()
  .describe(
    "a tenant (external_id or id): its suppression list is checked besides the account's; a key limited to a tenant checks its own",
  );

export const validateAddressSchema = z.strictObject({
  email: addressInput.describe('the address to check'),
  tenant: tenantField,
});
export type ValidateAddressInput = z.output<typeof validateAddressSchema>;

export const validateAddressesSchema = z.strictObject({
  emails: z
    .array(addressInput)
    .min(1, { message: 'emails must hold at least one address' })
    .max(MAX_VALIDATIONS_PER_BATCH, { message: `emails holds at most ${MAX_VALIDATIONS_PER_BATCH} addresses` })
    .describe(`the addresses to check (1-${MAX_VALIDATIONS_PER_BATCH}); each is answered, in order`),
  tenant: tenantField,
});
export type ValidateAddressesInput = z.output<typeof validateAddressesSchema>;

export interface AddressValidation {
  email: string;
  checks: AddressChecks;
  assessment: Assessment;
}

/** The public record of one address's validation. */
export function toPublicValidation(validation: AddressValidation) {
  const { checks, assessment } = validation;
  return {
    object: 'validation' as const,
    email: validation.email,
    verdict: assessment.verdict,
    score: assessment.score,
    reasons: assessment.reasons,
    suggestion: checks.suggestion,
    checks: {
      syntax: { valid: checks.syntax.valid, problem: checks.syntax.problem, smtputf8: checks.syntax.smtputf8 },
      domain: { result: checks.domain.result, hosts: checks.domain.hosts },
      disposable: checks.disposable,
      role: checks.role,
      suppressed: { suppressed: checks.suppressed.suppressed, reason: checks.suppressed.reason },
    },
  };
}
export type PublicValidation = ReturnType<typeof toPublicValidation>;
