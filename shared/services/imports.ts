/** Imports (docs/imports.md): the provider APIs they read (SendGrid, Postmark, Mailgun; base URLs from the environment). */
import type { ProviderCredentials } from '../domain/imports/source';
import { createProviderSource } from '../adapters/providers';
import { providerBaseUrls } from '../adapters/providers/base-urls';

export function buildImports() {
  return { providerSource: (credentials: ProviderCredentials) => createProviderSource(credentials, providerBaseUrls(process.env)) };
}

export type ImportServices = ReturnType<typeof buildImports>;
