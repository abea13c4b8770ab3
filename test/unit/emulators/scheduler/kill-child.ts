/**
 * Child process of the scheduler kill test (kill.test.ts): the scheduler emulator alone on DATA_DIR,
 * firing into the parent's fauxqs at SQS_ENDPOINT (which outlives the SIGKILL, so only the
 * emulator's own durability is tested). Prints `ready <port>`; SIGTERM stops it cleanly.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { startSchedulerEmulator } from '#localstack/emulators/scheduler';

async function main(): Promise<void> {
  const scheduler = await startSchedulerEmulator({
    dataDir: process.env.DATA_DIR,
    sqs: { endpoint: process.env.SQS_ENDPOINT ?? '', region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } },
    log: (m) => process.stderr.write(`[scheduler-child] ${m}\n`),
  });
  process.stdout.write(`ready ${scheduler.port}\n`);
  process.on('SIGTERM', () => {
    void scheduler.stop().then(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`[scheduler-child] failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
