/**
 * Child process of the SES kill test (kill.test.ts): the SES emulator alone on DATA_DIR, publishing
 * to the parent's fauxqs at SNS_ENDPOINT (so the parent's SNS/SQS outlive the SIGKILL and only the
 * emulator's own durability is tested). Prints `ready <port>`; SIGTERM stops it cleanly.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { SESv2Client } from '@aws-sdk/client-sesv2';
import { startDnsEmulator } from '#localstack/emulators/dns';
import { startSesEmulator } from '#localstack/emulators/ses';
import { verifiedDomainIdentity } from './verified-domain';

async function main(): Promise<void> {
  // The DNS the emulator verifies its sending domain against (example.com, as in ./harness.ts).
  const dns = await startDnsEmulator();
  const ses = await startSesEmulator({
    dnsResolver: dns.address,
    dataDir: process.env.DATA_DIR,
    sns: { endpoint: process.env.SNS_ENDPOINT ?? '', region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } },
    outcomeDelayMs: Number(process.env.OUTCOME_DELAY_MS ?? '20'),
    publishRetry: { baseMs: 50, maxMs: 500 },
    log: (m) => process.stderr.write(`[ses-child] ${m}\n`),
  });
  const client = new SESv2Client({
    endpoint: ses.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await verifiedDomainIdentity(client, dns, 'example.com');
  client.destroy();
  process.stdout.write(`ready ${ses.port}\n`);
  process.on('SIGTERM', () => {
    void ses.stop().then(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`[ses-child] failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
