/** Response schemas of address validation (POST /validations, POST /validations/batch). */
import * as z from 'zod';
import { SUPPRESSION_REASONS } from '#shared/domain/suppressions/reasons';
import type { toPublicValidation } from '#shared/domain/address-validation/schemas';
import { SYNTAX_PROBLEMS } from '#shared/domain/address-validation/syntax';
import { DOMAIN_RESULTS, VALIDATION_REASONS, VERDICTS } from '#shared/domain/address-validation/verdict';
import { describing } from '#shared/doors/openapi/common-schemas';

export const validationSchema = describing<ReturnType<typeof toPublicValidation>>()(
  z.strictObject({
    object: z.literal('validation').describe('always `validation`'),
    email: z.string().describe('the address as given'),
    verdict: z
      .enum(VERDICTS)
      .describe(
        'invalid: mail to it cannot be delivered; risky: it may be, at a cost or unchecked; valid: none of those (docs/deliverability.md)',
      ),
    score: z.number().min(0).max(1).describe('0 to 1, two decimals: higher is safer to send to (orders addresses within a verdict)'),
    reasons: z
      .array(z.enum(VALIDATION_REASONS))
      .describe('why the verdict is what it is, the most serious first; [] for a clean valid address'),
    suggestion: z
      .string()
      .nullable()
      .describe("the address with a large provider's domain in place of a probable typo (gmial.com -> gmail.com), or null"),
    checks: z
      .strictObject({
        syntax: z
          .strictObject({
            valid: z.boolean().describe('RFC 5321 / RFC 6531 syntax'),
            problem: z.enum(SYNTAX_PROBLEMS).nullable().describe('what is wrong with it; null when valid'),
            smtputf8: z.boolean().describe('the local part is not ASCII: deliverable only over SMTPUTF8 (RFC 6531)'),
          })
          .describe('the syntax check (RFC 5321, RFC 6531)'),
        domain: z
          .strictObject({
            result: z
              .enum(DOMAIN_RESULTS)
              .describe(
                'mx; implicit_mx (no MX, but A/AAAA); null_mx (RFC 7505); no_mail_host (NXDOMAIN, or no MX, A or AAAA); dns_error (timeout, SERVFAIL); not_checked (bad syntax)',
              ),
            hosts: z.array(z.string()).describe('the MX hosts by preference, or the domain itself for an implicit MX'),
          })
          .describe("the domain's mail hosts in DNS (RFC 5321 section 5.1, RFC 7505)"),
        disposable: z.boolean().describe('the domain (or a parent) is a disposable mail service'),
        role: z.boolean().describe('the local part names a role (admin, info, support, noreply, ...), not a person'),
        suppressed: z
          .strictObject({
            suppressed: z.boolean().describe("on this account's suppression list (or the tenant's)"),
            reason: z
              .enum([...SUPPRESSION_REASONS, 'erased'])
              .nullable()
              .describe("the entry's reason; erased: an erased address's lists, kept by hash without a reason; null when not suppressed"),
          })
          .describe("this account's suppression lists (the tenant's too, for a tenant)"),
      })
      .describe('each check on its own'),
  }),
);

export const validationListSchema = z.strictObject({
  validations: z.array(validationSchema).describe('one validation per address given, in the same order'),
});
