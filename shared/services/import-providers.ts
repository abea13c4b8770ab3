/** The provider APIs imports read (SendGrid, Postmark, Mailgun; base URLs from the environment): the migrations group and the admin CLI only. */
import type { ProviderCredentials } from '../domain/imports/source';
import { createProviderSource } from '../adapters/providers';
import { providerBaseUrls } from '../adapters/providers/base-urls';

export function buildImportProviders() {
  return { providerSource: (credentials: ProviderCredentials) => createProviderSource(credentials, providerBaseUrls(process.env)) };
}

export type ImportProviderServices = ReturnType<typeof buildImportProviders>;
