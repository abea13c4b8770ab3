/**
 * IAM on the local cloud once the template is deployed (docs/local-cloud/iam.md): the settings from the
 * deployed stack (resource policies, KMS aliases; the mode from LOCAL_IAM), enforcement on every SDK call
 * of a function (./iam-setup.ts; installed before the functions' modules build their clients), and the
 * service-to-service checks AWS makes when enforcing (./service-deliveries.ts): SES publishes to a topic
 * only if the topic's policy lets it, SNS delivers to a queue only if the queue's policy lets the topic
 * (else the message is dropped), and a schedule sends to its target only if its role may.
 */
import type { IamEnforcement } from '../../iam/install';
import type { NamedPolicy } from '../../iam/policy';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from '../constants';
import { enforceIam, iamModeFromEnv, type IamSettings } from './iam-setup';
import type { LocalEmulators } from '../services/local-emulators';
import type { LocalMessaging } from '../messaging/local-messaging';
import { schedulerTargetAuthorizer, sesPublishAuthorizer, snsDeliveryCheck } from './service-deliveries';
import type { StartContext } from '../stack/start-context';
import type { LocalDeployment } from '../template/deploy';
import { resourcePolicies } from '../template/iam-policies';

export interface LocalIam {
  settings: IamSettings;
  /** Undefined when LOCAL_IAM=off. */
  enforcement: IamEnforcement | undefined;
}

function iamSettings(deployment: LocalDeployment): IamSettings {
  const { stack } = deployment;
  const arnOfQueueUrl = new Map(Object.entries(deployment.queueUrls).map(([arn, url]) => [url, arn]));
  return {
    mode: iamModeFromEnv(process.env),
    accountId: LOCAL_ACCOUNT_ID,
    region: LOCAL_REGION,
    resourcePolicies: Object.fromEntries(resourcePolicies(stack, (url) => arnOfQueueUrl.get(url) ?? url)),
    kmsAliases: Object.fromEntries(
      stack.ofType('AWS::KMS::Alias').map((id) => {
        const alias = stack.properties<{ AliasName: string; TargetKeyId: string }>(id);
        return [alias.AliasName, alias.TargetKeyId];
      }),
    ),
  };
}

export async function installLocalIam(
  ctx: StartContext,
  deployment: LocalDeployment,
  policiesByRole: Map<string, NamedPolicy[]>,
  { ses, scheduler }: LocalEmulators,
  messaging: LocalMessaging,
): Promise<LocalIam> {
  const settings = iamSettings(deployment);
  const enforcement = enforceIam(settings, ctx.log);
  if (settings.mode === 'enforce') ses.authorizePublish(sesPublishAuthorizer(settings));
  if (settings.mode === 'enforce') {
    messaging.snsDeliveries.authorize(snsDeliveryCheck(settings, new Set(Object.keys(deployment.queueUrls))), ctx.log);
    ctx.stops.add(async () => messaging.snsDeliveries.authorize(null));
  }
  if (enforcement && settings.mode === 'enforce') {
    const policiesOfRoleArn = new Map(
      deployment.stack
        .ofType('AWS::IAM::Role')
        .map((id) => [deployment.stack.record(id).attributes.Arn as string, policiesByRole.get(id)!]),
    );
    scheduler.authorizeTargets(schedulerTargetAuthorizer(enforcement.authorizer, (arn) => policiesOfRoleArn.get(arn)));
  }
  return { settings, enforcement };
}
