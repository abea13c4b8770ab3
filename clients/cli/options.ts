/** Option parsers shared by the commands (commander calls them with the flag's text), and the files they name. */
import { readFileSync } from 'node:fs';
import { UsageError } from './errors';

/** A whole number from 1 to `max`; a usage error (exit 2) otherwise. */
export const positiveInteger = (name: string, max: number) => (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max)
    throw new UsageError(`${name} must be a whole number from 1 to ${max}, not "${value}"`);
  return number;
};

/** A file's text, for a command that reads one (a CSV, a list, a JSON body); a usage error (exit 2) when it cannot be read. */
export function readTextFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}
