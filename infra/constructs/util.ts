/** 'api-keys' -> 'ApiKeys', 'sesEvents' -> 'SesEvents': logical ids from definition names. */
export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The CDK context key of a setting (shared/config/settings.ts): INBOUND_MX_HOST -> inboundMxHost (`cdk deploy -c inboundMxHost=...`). */
export function settingContextKey(name: string): string {
  return name.toLowerCase().replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** Maps every value of a record keyed by definition ids, keeping the key type. */
export function mapRecord<K extends string, V, R>(record: Record<K, V>, fn: (value: V, key: K) => R): Record<K, R> {
  const out = {} as Record<K, R>;
  for (const key of Object.keys(record) as K[]) out[key] = fn(record[key], key);
  return out;
}
