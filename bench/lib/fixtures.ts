/** Fixtures the benches set up through the API: a JSON caller that throws on errors, and a verified domain. */
import type { HttpClient } from './load';

export type JsonCall = (method: string, path: string, body?: unknown) => Promise<any>;

/** Calls the API with `headers`; answers the parsed body, or throws with the status and body on >= 300. */
export function jsonCaller(client: HttpClient, headers: Record<string, string>): JsonCall {
  return async (method, path, body) => {
    const response = await client.request(method, path, headers, body === undefined ? undefined : JSON.stringify(body));
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
    return JSON.parse(response.text);
  };
}

/**
 * Adds `name` with POST /domains (and `extra` fields: `inbound_enabled`, `tenant`), publishes its records in
 * the DNS emulator and verifies it.
 */
export async function verifiedDomain(
  call: JsonCall,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; inbound_subdomain: string | null }> {
  const { domain } = (await call('POST', '/domains', { name, ...extra })) as {
    domain: { id: string; inbound_subdomain?: string | null; records: { type: string; name: string; value: string; priority?: number }[] };
  };
  for (const record of domain.records) {
    await call('PUT', '/_local/dns/records', {
      name: record.name,
      type: record.type,
      values: [record.type === 'MX' ? `${record.priority ?? 10} ${record.value}` : record.value],
    });
  }
  const verified = (await call('POST', `/domains/${domain.id}`, { action: 'verify' })) as { domain: { status: string } };
  if (verified.domain.status !== 'verified') throw new Error(`domain ${name} did not verify: ${JSON.stringify(verified)}`);
  return { id: domain.id, inbound_subdomain: domain.inbound_subdomain ?? null };
}
