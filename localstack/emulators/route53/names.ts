/** Route 53's spellings of DNS names: fully qualified in answers, and the order its lists follow. */
import { canonicalName } from '../dns/names';

/** The name as Route 53 answers it: with its trailing dot. */
export const dotted = (name: string) => (name.endsWith('.') ? name : `${name}.`);

/** Route 53's order: by name with its labels reversed (com.example.www), then by type. */
export function orderKey(name: string): string {
  return canonicalName(name).split('.').reverse().join('.');
}
