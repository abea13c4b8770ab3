/**
 * A small client for the provider emulator's control API (control/routes.ts), for tests and local tooling:
 * seed an account, change its faults, read its request log, remove it.
 */
import type { AccountSeed, Faults, RequestLogEntry } from './state';
import type { EmulatedProvider } from './types';

export async function seedProviderAccount(emulatorUrl: string, seed: AccountSeed): Promise<void> {
  await call(emulatorUrl, 'PUT', '/_control/accounts', seed);
}

export async function setProviderFaults(emulatorUrl: string, provider: EmulatedProvider, apiKey: string, faults: Faults): Promise<void> {
  await call(emulatorUrl, 'PUT', '/_control/faults', { provider, api_key: apiKey, faults });
}

export async function deleteProviderAccount(emulatorUrl: string, provider: EmulatedProvider, apiKey: string): Promise<void> {
  await call(emulatorUrl, 'DELETE', `/_control/accounts?${new URLSearchParams({ provider, api_key: apiKey })}`);
}

export async function providerRequestLog(emulatorUrl: string, provider: EmulatedProvider, apiKey: string): Promise<RequestLogEntry[]> {
  const res = await call(emulatorUrl, 'GET', `/_control/requests?${new URLSearchParams({ provider, api_key: apiKey })}`);
  return ((await res.json()) as { requests: RequestLogEntry[] }).requests;
}

async function call(emulatorUrl: string, method: string, path: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${emulatorUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`provider emulator ${method} ${path.split('?')[0] ?? ''} answered ${res.status}: ${await res.text()}`);
  return res;
}
