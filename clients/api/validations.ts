/**
 * Address validation as the clients read it (POST /validations, POST /validations/batch;
 * docs/deliverability.md, "Address validation"): the answer's type, the batch size and the words both the
 * CLI and the MCP server use to tell a person or a model what the verdicts mean. The type comes from the
 * API's own public record (a type-only import: nothing of shared/ runs in the clients).
 */
import type { PublicValidation } from '#shared/domain/address-validation/schemas';

export type Validation = PublicValidation;

/** Addresses one POST /validations/batch takes (the API's MAX_VALIDATIONS_PER_BATCH; a unit test holds them equal). */
export const VALIDATIONS_PER_REQUEST = 100;

/** "3 addresses: 1 valid, 1 risky, 1 invalid" (verdicts with none are left out). */
export function verdictCounts(validations: Validation[]): string {
  const counts = (['valid', 'risky', 'invalid'] as const)
    .map((verdict) => [verdict, validations.filter((validation) => validation.verdict === verdict).length] as const)
    .filter(([, count]) => count > 0)
    .map(([verdict, count]) => `${count} ${verdict}`);
  return `${validations.length} ${validations.length === 1 ? 'address' : 'addresses'}${counts.length ? `: ${counts.join(', ')}` : ''}`;
}

/** One address in a line: `jane@gmial.com: risky (score 0.7): possible_typo; did you mean jane@gmail.com?` */
export function validationLine(validation: Validation): string {
  const reasons = validation.reasons.length ? `: ${validation.reasons.join(', ')}` : '';
  const suggestion = validation.suggestion ? `; did you mean ${validation.suggestion}?` : '';
  return `${validation.email}: ${validation.verdict} (score ${validation.score})${reasons}${suggestion}`;
}
