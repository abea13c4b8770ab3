/**
 * Deploys the synthesized CDK template on the local services (../template/deploy.ts;
 * docs/local-cloud/template.md): what AWS would create, from the same template `npm run deploy` deploys,
 * its physical names recorded in the data folder (none when in memory). The API already listens: its URL
 * is the stack's ApiEndpoint.
 */
import type { LocalMessaging } from '../messaging/local-messaging';
import type { LocalClients } from '../services/aws-clients';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from '../constants';
import type { StartContext } from '../stack/start-context';
import { deployTemplate, type LocalDeployment } from '../template/deploy';
import type { SynthesizedTemplate } from '../template/synthesize';
import type { TemplateSource } from './template-source';
import { stackNameOf } from '../stack/stack-name';

export interface DeployedStackResult {
  deployment: LocalDeployment;
  synthesized: SynthesizedTemplate;
}

export async function deployStack(
  ctx: StartContext,
  source: TemplateSource,
  clients: LocalClients,
  fauxqs: LocalMessaging,
  apiUrl: string,
): Promise<DeployedStackResult> {
  const { options, log } = ctx;
  const synthesized = await source.synthesizing;
  log(
    `template ${synthesized.hash.slice(0, 12)} ${source.templateFile ? `from ${source.templateFile}` : synthesized.cached ? 'from the cache' : 'synthesized'} in ${synthesized.ms} ms`,
  );
  const deployment = await deployTemplate({
    template: synthesized.template,
    identity: { stackName: stackNameOf(options), region: LOCAL_REGION, accountId: LOCAL_ACCOUNT_ID, apiUrl },
    dataDir: options.inMemory ? undefined : ctx.dataDir,
    clients: { dynamo: clients.dynamo, ses: clients.ses, scheduler: clients.scheduler, kms: clients.kms },
    fauxqs,
    visibilityOverrideSeconds: options.visibilityOverrideSeconds,
  });
  if (deployment.names === 'legacy')
    log("kept the data folder's resources under their names from before the template deploy (cloudformation.json records them now)");
  return { deployment, synthesized };
}
