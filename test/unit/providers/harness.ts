/**
 * Test harness for the provider adapters: the provider emulator in process, seeding through its
 * control API, unique keys per test, reading every page of a list, and catching ProviderErrors.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { seedProviderAccount, startProviderEmulator, type AccountSeed, type ProviderEmulator } from '#localstack/emulators/providers';
import { ProviderError } from '#shared/ports/provider-source';
import type { SourcePage } from '#shared/domain/imports/source';
import type { ProviderBaseUrls } from '#shared/adapters/providers/base-urls';

export { providerRequestLog } from '#localstack/emulators/providers';

export async function startEmulator(): Promise<ProviderEmulator> {
  return startProviderEmulator({ port: 0, demo: false });
}

let counter = 0;
/** A key no other test uses (the emulator keeps accounts apart by key). */
export function uniqueKey(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 10)}`;
}

export async function seed(emulator: ProviderEmulator, account: AccountSeed): Promise<void> {
  await seedProviderAccount(emulator.url, account);
}

/** Every item of a paged list, and how many pages it took. */
export async function readAll<T>(
  read: (page: string | null) => Promise<SourcePage<T>>,
  maxPages = 1000,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let page: string | null = null;
  let pages = 0;
  do {
    const result: SourcePage<T> = await read(page);
    items.push(...result.items);
    page = result.next;
    pages += 1;
    if (pages > maxPages) throw new Error('too many pages');
  } while (page !== null);
  return { items, pages };
}

/** The ProviderError `fn` throws (fails when it throws nothing or something else). */
export async function providerErrorOf(fn: () => Promise<unknown>): Promise<ProviderError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof ProviderError) return err;
    throw err;
  }
  throw new Error('expected a ProviderError');
}

/** A URL on which nothing listens (a port opened then closed). */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Base URLs all pointing at one (dead or live) origin. */
export function allUrls(origin: string): ProviderBaseUrls {
  return { sendgrid: origin, sendgridEu: origin, postmark: origin, mailgun: origin, mailgunEu: origin };
}

export function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}
