/**
 * IAM on the local cloud (docs/local-cloud/iam.md): every SDK call a deployed function (or the relay task)
 * makes is authorized against its role's policies from the template and the resource's policy, by
 * localstack/iam. Installed in each thread that runs functions (the API process, the workers thread), from
 * plain settings that cross to the thread. LOCAL_IAM=log only reports denials (the explain log);
 * LOCAL_IAM=off turns the checks off. Default: enforce.
 */
import { installIamEnforcement, type IamDecisionEvent, type IamEnforcement } from '../../iam/install';
import type { NamedPolicy } from '../../iam/policy';

export type IamMode = 'enforce' | 'log' | 'off';

export interface IamSettings {
  mode: IamMode;
  accountId: string;
  region: string;
  /** Resource policies by resource ARN (bucket, queue, topic, KMS key). */
  resourcePolicies: Record<string, NamedPolicy>;
  /** KMS alias name (`alias/x`) -> key ARN. */
  kmsAliases: Record<string, string>;
}

export function iamModeFromEnv(env: NodeJS.ProcessEnv): IamMode {
  const raw = (env.LOCAL_IAM ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'enforce') return 'enforce';
  if (raw === 'log' || raw === 'off') return raw;
  throw new Error(`LOCAL_IAM must be enforce, log or off, got "${env.LOCAL_IAM}"`);
}

/** Installs the checks in this thread; denials (and, in log mode, would-be denials) go to `log`. */
export function enforceIam(settings: IamSettings, log: (message: string) => void): IamEnforcement | undefined {
  if (settings.mode === 'off') return undefined;
  const aliasTarget = (alias: string) => settings.kmsAliases[alias.replace(/^arn:aws:kms:[^:]*:[^:]*:/, '')];
  return installIamEnforcement({
    accountId: settings.accountId,
    region: settings.region,
    mode: settings.mode,
    resourcePolicyOf: (arn) => settings.resourcePolicies[arn],
    kmsAliasTarget: aliasTarget,
    onDecision: (event: IamDecisionEvent) => {
      if (event.message) log(`iam: ${settings.mode === 'log' ? '(log only) ' : ''}${event.message}`);
    },
  });
}
