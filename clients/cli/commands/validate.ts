/**
 * `mailservice validate <email...>` and `--file <list>` (POST /validations/batch; docs/deliverability.md,
 * "Address validation"): each address's verdict (valid, risky, invalid), score, reasons and typo
 * suggestion, as a table then the counts (`--json`: `{validations}`, in the order given). A file is sent
 * 100 addresses a request, with progress on stderr. Nothing is sent to the addresses.
 */
import type { Command } from 'commander';
import { verdictCounts, type Validation } from '../../api/validations';
import { contextOf } from '../context';
import { CliFailure, UsageError } from '../errors';
import { readTextFile } from '../options';
import type { CliIo } from '../io';
import { formatTable, printJson } from '../output';
import { startProgress } from '../progress';
import { addressesOfFile, runValidation } from '../validate/run-validation';

/** The table, then the counts. */
export function describeValidations(validations: Validation[]): string {
  const table = formatTable(
    ['email', 'verdict', 'score', 'reasons', 'suggestion'],
    validations.map((validation) => [
      validation.email,
      validation.verdict,
      validation.score,
      validation.reasons.join(','),
      validation.suggestion,
    ]),
  );
  return `${table}${verdictCounts(validations)}\n`;
}

function readAddresses(file: string): string[] {
  const addresses = addressesOfFile(readTextFile(file));
  if (addresses.length === 0) throw new CliFailure(`${file} has no addresses (one a line)`);
  return addresses;
}

export function registerValidate(program: Command, io: CliIo): void {
  program
    .command('validate [emails...]')
    .description("check addresses without sending to them: syntax, the domain's mail hosts, disposable, role, suppressed, typos")
    .option('--file <file>', 'also the addresses of this file, one a line (sent 100 a request, with progress on stderr)')
    .option('--tenant <tenant>', "check this tenant's suppression list too")
    .action(async (emails: string[], options: { file?: string; tenant?: string }, command: Command) => {
      const ctx = contextOf(io, command);
      const addresses = [...emails, ...(options.file !== undefined ? readAddresses(options.file) : [])];
      if (addresses.length === 0) throw new UsageError('give the addresses to validate, or --file with one address a line');
      const progress = options.file !== undefined ? startProgress(io, 'validate', 'addresses') : undefined;
      const run = await runValidation(ctx.client(), addresses, { tenant: options.tenant, progress, sleep: io.sleep });
      if (run.error !== undefined && run.validations.length === 0) throw run.error;
      if (ctx.json) printJson(io, { validations: run.validations });
      else io.out(describeValidations(run.validations));
      if (run.error === undefined) return;
      if (!ctx.json)
        io.err(
          `Stopped after ${run.validations.length} of ${addresses.length} addresses (those are above); the first not validated is ${addresses[run.validations.length]}.\n`,
        );
      throw run.error;
    });
}
