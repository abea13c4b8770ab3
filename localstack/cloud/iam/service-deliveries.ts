/**
 * Deliveries one AWS service makes to another, authorized as AWS authorizes them: by the receiving
 * resource's policy, for the sending service's principal, with aws:SourceArn and aws:SourceAccount naming
 * the resource the delivery is for (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-sourcearn).
 * Here: SES publishing a configuration set's events to the events topic, which the topic policy must allow
 * to `ses.amazonaws.com` for that configuration set
 * (https://docs.aws.amazon.com/ses/latest/dg/event-publishing-add-event-destination-sns.html); and EventBridge
 * Scheduler sending a schedule's message to its target queue as the schedule's execution role, which that role's
 * policies must allow (sqs:SendMessage on the queue, with the queue's policy); and SNS delivering a topic's
 * message to a subscribed queue, which the queue's policy must allow to `sns.amazonaws.com` (sqs:SendMessage)
 * for that topic (https://docs.aws.amazon.com/sns/latest/dg/subscribe-sqs-queue-to-sns-topic.html): without
 * it the delivery fails, is not retried (a client-side error:
 * https://docs.aws.amazon.com/sns/latest/dg/sns-message-delivery-retries.html) and the message is lost for
 * that subscription (../messaging/sns-delivery-gate.ts drops it).
 */
import { evaluate } from '../../iam/evaluate';
import type { PublishAuthorizer } from '../../emulators/ses/publisher';
import type { IamSettings } from './iam-setup';
import { principalOf } from '../lambda/function-context';
import type { Authorizer } from '../../iam/authorize';
import type { NamedPolicy } from '../../iam/policy';
import type { TargetAuthorizer } from '../../emulators/scheduler/sqs-target';
import type { SnsDeliveryCheck } from '../messaging/sns-delivery-gate';

/** The scheduler's sends, as the schedule's role (`policiesOfRole`: the template's roles by ARN; an unknown role may do nothing). */
export function schedulerTargetAuthorizer(
  authorizer: Authorizer,
  policiesOfRole: (roleArn: string) => NamedPolicy[] | undefined,
): TargetAuthorizer {
  return async (roleArn, queueArn, queueUrl) => {
    const policies = policiesOfRole(roleArn);
    if (!policies) return `${roleArn} is not a role of the deployed template`;
    const verdict = await authorizer.authorize(
      principalOf({ functionName: 'scheduler', roleArn, policies }),
      'SQSClient',
      'SendMessageCommand',
      { QueueUrl: queueUrl, MessageBody: '{}' },
    );
    return verdict.allowed
      ? true
      : `${roleArn} may not sqs:SendMessage to ${queueArn}${verdict.error ? ` (${verdict.error.message})` : ''}`;
  };
}

/**
 * Whether the resource's policy lets AWS service `service` do `action` on it for `sourceArn` (the resource the
 * delivery is for; undefined: the key is absent): Allow, Deny or ImplicitDeny, or 'no policy' when the resource has none.
 */
function serviceDeliveryVerdict(
  settings: IamSettings,
  request: { service: string; action: string; resource: string; sourceArn?: string },
): string {
  const resourcePolicy = settings.resourcePolicies[request.resource];
  if (!resourcePolicy) return 'no policy';
  const { sourceArn } = request;
  return evaluate(
    {
      action: request.action,
      resource: request.resource,
      context: {
        'aws:SecureTransport': 'true',
        'aws:SourceAccount': settings.accountId,
        ...(sourceArn ? { 'aws:SourceArn': sourceArn } : {}),
      },
      absentKeys: sourceArn ? [] : ['aws:SourceArn'],
    },
    { kind: 'service', service: request.service },
    { identityPolicies: [], resourcePolicy },
  ).effect;
}

export function sesPublishAuthorizer(settings: IamSettings): PublishAuthorizer {
  return (topicArn, configurationSet) => {
    // A topic the template does not define (a test's or an operator's own): its policy is not known here.
    if (!settings.resourcePolicies[topicArn]) return true;
    const sourceArn = configurationSet
      ? `arn:aws:ses:${settings.region}:${settings.accountId}:configuration-set/${configurationSet}`
      : undefined;
    const verdict = serviceDeliveryVerdict(settings, {
      service: 'ses.amazonaws.com',
      action: 'sns:Publish',
      resource: topicArn,
      sourceArn,
    });
    return verdict === 'Allow'
      ? true
      : `no statement of the topic's policy allows ses.amazonaws.com sns:Publish for ${sourceArn ?? 'a send without a configuration set'} (${verdict})`;
  };
}

/**
 * SNS's deliveries to the template's queues, by each queue's policy (`templateQueueArns`: a queue the template
 * defines and gives no policy refuses SNS, as an SQS queue does by default). A queue the template does not
 * define (a test's own) is not checked: its policy is not known here.
 */
export function snsDeliveryCheck(settings: IamSettings, templateQueueArns: ReadonlySet<string>): SnsDeliveryCheck {
  return (topicArn, queueArn) => {
    if (!templateQueueArns.has(queueArn)) return true;
    const verdict = serviceDeliveryVerdict(settings, {
      service: 'sns.amazonaws.com',
      action: 'sqs:SendMessage',
      resource: queueArn,
      sourceArn: topicArn,
    });
    return verdict === 'Allow'
      ? true
      : `no statement of the queue's policy allows sns.amazonaws.com sqs:SendMessage for ${topicArn} (${verdict === 'no policy' ? 'no queue policy' : verdict})`;
  };
}
