/**
 * The template the local cloud deploys, started first so its synthesis (cached: ~0.1 s; after an edit of
 * infra/ a few seconds) runs alongside the emulators' start: LOCAL_TEMPLATE_FILE's template when set, else
 * the CDK app synthesized with this machine's settings as synthesis context.
 */
import { resolve } from 'node:path';
import { SETTINGS } from '#infra/definitions';
import { settingContextKey } from '#infra/constructs/util';
import type { LocalCloudOptions } from '../stack/start-context';
import { synthesizedTemplate, templateFromFile, type SynthesizedTemplate } from '../template/synthesize';

export interface TemplateSource {
  /** LOCAL_TEMPLATE_FILE, when the template comes from it. */
  templateFile?: string;
  /** The template; a failure is the start's once it is awaited, never an unhandled rejection. */
  synthesizing: Promise<SynthesizedTemplate>;
}

/**
 * Settings a developer sets on `npm start` (SANDBOX_DOMAIN, INBOUND_MX_HOST, ...) are synthesis context, as
 * `cdk deploy -c inboundMxHost=...` gives them (infra/stacks/mailservice-stack.ts): the template carries
 * them to the functions. DNS_RESOLVERS and LINKS_BASE_URL are this machine's (local overrides instead).
 */
function settingsContext(env: NodeJS.ProcessEnv, sandboxDomain: string): Record<string, string> {
  const context: Record<string, string> = {};
  for (const name of Object.keys(SETTINGS)) {
    if (name === 'DNS_RESOLVERS' || name === 'LINKS_BASE_URL' || name === 'SANDBOX_DOMAIN') continue;
    const value = env[name]?.trim();
    if (value) context[settingContextKey(name)] = value;
  }
  if (sandboxDomain !== SETTINGS.SANDBOX_DOMAIN) context.sandboxDomain = sandboxDomain;
  return context;
}

export function startTemplateSynthesis(options: LocalCloudOptions): TemplateSource {
  const templateFile = process.env.LOCAL_TEMPLATE_FILE?.trim();
  const synthesizing = templateFile
    ? Promise.resolve().then(() => templateFromFile(resolve(templateFile)))
    : synthesizedTemplate(settingsContext(process.env, options.sandboxDomain ?? SETTINGS.SANDBOX_DOMAIN));
  synthesizing.catch(() => undefined);
  return { templateFile: templateFile || undefined, synthesizing };
}
