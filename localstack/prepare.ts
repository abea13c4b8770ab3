/**
 * `npm install`'s last step (package.json `prepare`): builds what the first `npm start` would otherwise build
 * before it is ready, so a fresh clone's first start is as quick as any later one: the local cloud's three bundles
 * (./bundles.cjs), the operator CLI's, the CLI's and the MCP server's (bin/run-bundled.js), and the template
 * synthesized with this machine's settings (./cloud/deploy/template-source.ts). On a fresh clone the first start
 * was ready in 6.0 s (7.7 s from `npm start` on, 456 MB) instead of 2.9 s (3.6 s, 442 MB), 4.2 s of the
 * difference the synthesis (2026-11-29). Each is cached, so an install that changes nothing builds nothing.
 * A failure here never fails the install: the start builds what is missing, as before.
 */
import { startTemplateSynthesis } from './cloud/deploy/template-source';
import { bundles, PROGRAMS } from '../bin/run-bundled';

// Plain CommonJS modules of the repository (the bundle cache): required, as `npm start` and the CLIs do.
const { localCloudBundles } = require('./bundles.cjs') as { localCloudBundles: () => Promise<Record<string, string>> };

/** What is built, by name: the local cloud's bundles, each CLI's (bin/run-bundled.js `PROGRAMS`) and the template. */
export const PREPARED: Record<string, () => Promise<unknown>> = {
  'local cloud bundles': () => localCloudBundles(),
  ...Object.fromEntries(Object.entries(PROGRAMS).map(([name, entry]) => [`${name} bundle`, () => bundles(name, { main: entry })])),
  // As `npm start` synthesizes it (its SANDBOX_DOMAIN and settings from the environment).
  template: () =>
    startTemplateSynthesis({ port: 0, dataDir: '.data', inMemory: true, sandboxDomain: process.env.SANDBOX_DOMAIN || undefined })
      .synthesizing,
};

/** Builds each of `steps` (PREPARED); a failure is printed, never thrown (the start builds what is missing). */
export async function main(steps: Record<string, () => Promise<unknown>> = PREPARED): Promise<void> {
  const started = Date.now();
  for (const [name, prepare] of Object.entries(steps)) {
    try {
      await prepare();
    } catch (error) {
      console.warn(
        `prepare: ${name} not built (npm start builds it on first use): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  console.log(`prepare: the local cloud's bundles and template are ready (${Date.now() - started} ms)`);
}
