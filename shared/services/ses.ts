/** SES (a SESv2 client for SendEmail, whose throttling the send worker handles, and one for the rest): sending raw messages with our configuration set, and our tenants as SES tenants (docs/ses-tenants.md). */
import { createSesClient, createSesSendClient } from '../adapters/aws/ses-clients';
import { SesMailer } from '../adapters/aws/ses-mailer';
import { SesV2Tenants } from '../adapters/aws/ses-tenants';
import type { Config } from '../config/config';

export function buildSes(config: Config) {
  const ses = createSesClient(config);
  return {
    mailer: new SesMailer(ses, config.sesConfigurationSet, () => createSesSendClient(config)),
    /** Our tenants as SES v2 tenants (docs/ses-tenants.md). */
    sesTenants: new SesV2Tenants(ses, { region: config.region, accountId: config.accountId, configurationSet: config.sesConfigurationSet }),
  };
}

export type SesServices = ReturnType<typeof buildSes>;
