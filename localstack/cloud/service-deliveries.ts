/**
 * Deliveries one AWS service makes to another, authorized as AWS authorizes them: by the receiving
 * resource's policy, for the sending service's principal, with aws:SourceArn and aws:SourceAccount naming
 * the resource the delivery is for (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-sourcearn).
 * Here: SES publishing a configuration set's events to the events topic, which the topic policy must allow
 * to `ses.amazonaws.com` for that configuration set
 * (https://docs.aws.amazon.com/ses/latest/dg/event-publishing-add-event-destination-sns.html); and EventBridge
 * Scheduler sending a schedule's message to its target queue as the schedule's execution role, which that role's
 * policies must allow (sqs:SendMessage on the queue, with the queue's policy).
 */
import { evaluate } from '../iam/evaluate';
import type { PublishAuthorizer } from '../emulators/ses/publisher';
import type { IamSettings } from './iam-setup';
import { principalOf } from './function-context';
import type { Authorizer } from '../iam/authorize';
import type { NamedPolicy } from '../iam/policy';
import type { TargetAuthorizer } from '../emulators/scheduler/sqs-target';

/** The scheduler's sends, as the schedule's role (`policiesOfRole`: the template's roles by ARN; an unknown role may do nothing). */
export function schedulerTargetAuthorizer(authorizer: Authorizer, policiesOfRole: (roleArn: string) => NamedPolicy[] | undefined): TargetAuthorizer {
  return async (roleArn, queueArn, queueUrl) => {
    const policies = policiesOfRole(roleArn);
    if (!policies) return `${roleArn} is not a role of the deployed template`;
    const verdict = await authorizer.authorize(principalOf({ functionName: 'scheduler', roleArn, policies }), 'SQSClient', 'SendMessageCommand', { QueueUrl: queueUrl, MessageBody: '{}' });
    return verdict.allowed ? true : `${roleArn} may not sqs:SendMessage to ${queueArn}${verdict.error ? ` (${verdict.error.message})` : ''}`;
  };
}

export function sesPublishAuthorizer(settings: IamSettings): PublishAuthorizer {
  return (topicArn, configurationSet) => {
    const resourcePolicy = settings.resourcePolicies[topicArn];
    // A topic the template does not define (a test's or an operator's own): its policy is not known here.
    if (!resourcePolicy) return true;
    const sourceArn = configurationSet ? `arn:aws:ses:${settings.region}:${settings.accountId}:configuration-set/${configurationSet}` : undefined;
    const decision = evaluate(
      {
        action: 'sns:Publish',
        resource: topicArn,
        context: { 'aws:SecureTransport': 'true', 'aws:SourceAccount': settings.accountId, ...(sourceArn ? { 'aws:SourceArn': sourceArn } : {}) },
        absentKeys: sourceArn ? [] : ['aws:SourceArn'],
      },
      { kind: 'service', service: 'ses.amazonaws.com' },
      { identityPolicies: [], resourcePolicy },
    );
    return decision.effect === 'Allow' ? true : `no statement of the topic's policy allows ses.amazonaws.com sns:Publish for ${sourceArn ?? 'a send without a configuration set'} (${decision.effect})`;
  };
}
