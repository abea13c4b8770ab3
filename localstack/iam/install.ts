/**
 * The local cloud's IAM enforcement, as one call:
 *
 *   const uninstall = installIamEnforcement({ accountId, region, resourcePolicyOf, mode: 'enforce', onDecision });
 *   await runAs({ functionName, roleArn, policies }, () => handler(event));
 *
 * It registers a hook (shared/adapters/aws/client-hooks.ts) that adds the enforcement middleware (./middleware.ts)
 * to every client the product's factories build FROM THEN ON: install before the functions' modules build
 * their clients. A client built with a customer's credentials (Route 53 DNS apply) is left alone: those
 * calls are not the function role's. Uninstalling removes the hook and turns the middleware of clients
 * already built into a pass-through.
 */
import { registerClientHook, type AwsClientInfo, type HookableClient } from '#shared/adapters/aws/client-hooks';
import { Authorizer, type AuthorizerOptions } from './authorize';
import { addIamMiddleware, type Enforcement, type IamDecisionEvent, type IamMode } from './middleware';

export { runAs, currentPrincipal, type Principal } from './caller';
export type { IamDecisionEvent, IamMode } from './middleware';
export type { NamedPolicy, PolicyDocument } from './policy';

export interface IamEnforcementOptions extends Omit<AuthorizerOptions, 'partition' | 'streamOfShardIterator'> {
  /** `aws` unless the region is a China or GovCloud one. */
  partition?: string;
  /** 'enforce' (default): a denied call fails with AccessDenied. 'log': it goes through and is only reported. */
  mode?: IamMode;
  /** Called for every evaluated call (the explain log, tests). */
  onDecision?: (event: IamDecisionEvent) => void;
}

const partitionOf = (region: string): string => (region.startsWith('cn-') ? 'aws-cn' : region.startsWith('us-gov-') ? 'aws-us-gov' : 'aws');

export interface IamEnforcement {
  /** Removes the hook and disables the middleware on clients already built. */
  (): void;
  /** Adds the middleware to a client not built by the product's factories. */
  apply(client: HookableClient): void;
  authorizer: Authorizer;
}

export function installIamEnforcement(options: IamEnforcementOptions): IamEnforcement {
  const { mode = 'enforce', onDecision, partition = partitionOf(options.region), ...rest } = options;
  let active = true;
  const authorizer = new Authorizer({ ...rest, partition });
  const enforcement: Enforcement = { authorizer, mode, ...(onDecision ? { onDecision } : {}), active: () => active, iterators: new Map() };
  const hook = (client: HookableClient, info: AwsClientInfo) => {
    if (!info.explicitCredentials) addIamMiddleware(client, enforcement);
  };
  const unregister = registerClientHook(hook);
  const uninstall = () => {
    active = false;
    unregister();
  };
  return Object.assign(uninstall, { apply: (client: HookableClient) => addIamMiddleware(client, enforcement), authorizer });
}
