import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  await globalThis.__OWN_STACKS_DYNAMODB__?.stop();
  const stack = globalThis.__LOCAL_CLOUD__;
  if (!stack) return;
  const code = await stack.stop('SIGINT');
  if (code !== 0) console.error(`local cloud exited with ${code}:\n${stack.output().slice(-3000)}`);
  rmSync(stack.dataDir, { recursive: true, force: true });
}
