/** What the document keeps of a JSON Schema zod writes (./components.ts, ./query-parameters.ts). */
import type { JsonSchema } from './document-types';

const SAFE_INTEGER = 9007199254740991;

/** Drops what only a standalone JSON Schema needs, and zod's safe-integer bounds (noise in a document). */
export function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$schema' || key === '$id') continue;
    if ((key === 'minimum' && item === -SAFE_INTEGER) || (key === 'maximum' && item === SAFE_INTEGER)) continue;
    if (key === 'propertyNames' && JSON.stringify(item) === '{"type":"string"}') continue;
    out[key] = clean(item);
  }
  return out;
}
