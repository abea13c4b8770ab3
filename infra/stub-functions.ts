/**
 * Stub function code for synthesizing the stack without bundles: a `<name>/index.js` per function (and the
 * SMTP relay's image context with the real Dockerfile). The template is the same as with real bundles
 * except the asset hashes. Used by the infra tests and by the local cloud, which deploys the synthesized
 * template but runs each function from its source entry (localstack/cloud/template/).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUNDLE_FILE, PROJECT_ROOT, RELAY_DOCKERFILE, functionCodeDir, functionEntries } from './functions';
import { SMTP_RELAY } from './definitions';

/** A temp directory with a stub `<name>/index.js` for every function (or the names given). */
export function stubFunctionsDir(names: string[] = functionEntries().map((e) => e.name)): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailservice-fn-'));
  for (const name of names) {
    const codeDir = functionCodeDir(dir, name);
    fs.mkdirSync(codeDir, { recursive: true });
    fs.writeFileSync(path.join(codeDir, BUNDLE_FILE), `exports.handler = async () => ({ stub: ${JSON.stringify(name)} });\n`);
  }
  // The SMTP relay's image context: a stub bundle and the real Dockerfile.
  const relayDir = functionCodeDir(dir, SMTP_RELAY.name);
  fs.mkdirSync(relayDir, { recursive: true });
  fs.writeFileSync(path.join(relayDir, BUNDLE_FILE), 'console.log("stub relay");\n');
  fs.copyFileSync(path.join(PROJECT_ROOT, RELAY_DOCKERFILE), path.join(relayDir, 'Dockerfile'));
  return dir;
}

/** The context of cdk.json (feature flags), so a synthesis here is what `cdk synth` does. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  return cdkJson.context ?? {};
}
