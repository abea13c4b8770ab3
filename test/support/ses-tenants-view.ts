/** The local SES emulator's tenants as a test reads them: an SESv2 client on the stack, and a tenant's associations. */
import { ListTenantResourcesCommand, SESv2Client } from '@aws-sdk/client-sesv2';

export const CONFIGURATION_SET_ARN = 'arn:aws:ses:us-east-1:000000000000:configuration-set/mailservice-outbound';
/** The TLS-required twin, associated with every SES tenant beside the main set. */
export const TLS_CONFIGURATION_SET_ARN = 'arn:aws:ses:us-east-1:000000000000:configuration-set/mailservice-outbound-tls-required';
/** The configuration sets every SES tenant of ours is associated with, sorted as sesResources lists them. */
export const OUR_CONFIGURATION_SET_ARNS = [CONFIGURATION_SET_ARN, TLS_CONFIGURATION_SET_ARN];
export const identityArn = (domain: string) => `arn:aws:ses:us-east-1:000000000000:identity/${domain}`;

/** A client of the stack's SES emulator (one attempt: a test sees each answer as SES gave it). */
export function sesClient(env: Record<string, string | undefined>): SESv2Client {
  return new SESv2Client({
    endpoint: env.AWS_ENDPOINT_URL_SESV2,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
}

/** The ARNs associated with the SES tenant, sorted; null when it does not exist. */
export async function sesResources(ses: SESv2Client, name: string): Promise<string[] | null> {
  try {
    const listed = await ses.send(new ListTenantResourcesCommand({ TenantName: name }));
    return (listed.TenantResources ?? []).map((r) => r.ResourceArn!).sort();
  } catch (error) {
    if ((error as Error).name === 'NotFoundException') return null;
    throw error;
  }
}

/**
 * For a test file: a client of the stack's SES emulator made before its tests and destroyed after them
 * (`env`: the stack's environment, read once the stack is up), and a tenant's associations through it.
 */
export function sesTenantsView(env: () => Record<string, string | undefined>): {
  client: () => SESv2Client;
  resources: (name: string) => Promise<string[] | null>;
} {
  let ses: SESv2Client | undefined;
  beforeAll(() => {
    ses = sesClient(env());
  });
  afterAll(() => ses?.destroy());
  return { client: () => ses!, resources: (name) => sesResources(ses!, name) };
}
