/** Fixtures the benches set up through the API: a JSON caller that throws on errors, and a verified domain. */
import { HttpClient } from './load';

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

/**
 * A `dedicated`-plan account with a payment method (no daily or monthly cap), created with the product's own
 * use case (`createAccount`, loaded by the bench after the stack's environment is set), and a verified domain
 * `<prefix>-<random>.example-mail.test`: production sends, as a customer's. Its key's headers, a client of
 * `connections` to the API, and a JSON caller on it.
 */
export async function dedicatedSender(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  createAccount: (services: any, input: any) => Promise<{ account: { id: string }; secret: string }>,
  services: unknown,
  apiUrl: string,
  prefix: string,
  connections = 4,
): Promise<{ secret: string; domain: string; headers: Record<string, string>; client: HttpClient; call: JsonCall }> {
  const suffix = Math.random().toString(36).slice(2, 8);
  const { secret } = await createAccount(services, {
    email: `bench-${suffix}@example.com`,
    plan: 'dedicated',
    paymentMethod: true,
    tenants: false,
  });
  const client = new HttpClient(apiUrl, connections);
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
  const call = jsonCaller(client, headers);
  const domain = `${prefix}-${suffix}.example-mail.test`;
  await verifiedDomain(call, domain);
  return { secret, domain, headers, client, call };
}
