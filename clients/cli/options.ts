/** Option parsers shared by the commands (commander calls them with the flag's text). */
import { UsageError } from './errors';

/** A whole number from 1 to `max`; a usage error (exit 2) otherwise. */
export const positiveInteger = (name: string, max: number) => (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max)
    throw new UsageError(`${name} must be a whole number from 1 to ${max}, not "${value}"`);
  return number;
};
