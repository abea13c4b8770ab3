/**
 * The provider adapters behind one door: `createProviderSource` picks the ProviderSource for the
 * credentials' provider (SendGrid, Postmark, Mailgun), reading from the configured base URLs.
 */
import type { ProviderCredentials } from '../../domain/imports/source';
import type { ProviderSource } from '../../ports/provider-source';
import { providerBaseUrls, type ProviderBaseUrls } from './base-urls';
import type { AdapterOptions } from './http';
import { MailgunSource } from './mailgun';
import { PostmarkSource } from './postmark';
import { SendgridSource } from './sendgrid';

export { providerBaseUrls, type ProviderBaseUrls } from './base-urls';
export { MailgunSource } from './mailgun';
export { PostmarkSource } from './postmark';
export { SendgridSource } from './sendgrid';

export function createProviderSource(
  credentials: ProviderCredentials,
  urls: ProviderBaseUrls = providerBaseUrls(),
  options: AdapterOptions = {},
): ProviderSource {
  switch (credentials.provider) {
    case 'sendgrid':
      return new SendgridSource(credentials, urls, options);
    case 'postmark':
      return new PostmarkSource(credentials, urls, options);
    case 'mailgun':
      return new MailgunSource(credentials, urls, options);
  }
}
