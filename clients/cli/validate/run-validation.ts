/**
 * `mailservice validate`'s work: the addresses (arguments, then a file's lines), posted to
 * POST /validations/batch 100 at a time, in order. A 429 with a short Retry-After (a per-second rate
 * limit) is waited out and tried again; a long one (the plan's hourly allowance) or any other failure
 * stops the run: what was validated so far is kept, with the error, for the command to print both.
 */
import { ApiError, type ApiClient } from '../../api/client';
import { VALIDATIONS_PER_REQUEST, type Validation } from '../../api/validations';
import type { Progress } from '../progress';

/** A 429 waited out at most this long before the run stops instead (the hourly allowance answers minutes). */
export const MAX_RETRY_WAIT_SECONDS = 60;

/** A file's addresses: one a line; blank lines and `#` comments are skipped, spaces around an address dropped. */
export function addressesOfFile(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

export interface ValidationRun {
  validations: Validation[];
  /** What stopped the run before its end, if anything (the validations above are those done before it). */
  error?: unknown;
}

export async function runValidation(
  client: ApiClient,
  emails: string[],
  options: { tenant?: string; progress?: Progress; sleep: (ms: number) => Promise<void> },
): Promise<ValidationRun> {
  const validations: Validation[] = [];
  const { progress, sleep } = options;
  progress?.update(0, emails.length, '');
  try {
    for (let start = 0; start < emails.length; start += VALIDATIONS_PER_REQUEST) {
      const body = {
        emails: emails.slice(start, start + VALIDATIONS_PER_REQUEST),
        ...(options.tenant !== undefined ? { tenant: options.tenant } : {}),
      };
      for (;;) {
        try {
          validations.push(...(await client.post<{ validations: Validation[] }>('/validations/batch', body)).validations);
          break;
        } catch (error) {
          const wait = error instanceof ApiError && error.status === 429 ? (error.retryAfterSeconds ?? 1) : undefined;
          if (wait === undefined || wait > MAX_RETRY_WAIT_SECONDS) throw error;
          progress?.update(validations.length, emails.length, `rate limited: waiting ${wait} s`);
          await sleep(wait * 1000);
        }
      }
      const invalid = validations.filter((validation) => validation.verdict === 'invalid').length;
      const risky = validations.filter((validation) => validation.verdict === 'risky').length;
      progress?.update(validations.length, emails.length, `invalid ${invalid}, risky ${risky}`);
    }
    return { validations };
  } catch (error) {
    return { validations, error };
  } finally {
    progress?.stop();
  }
}
