/**
 * The template's SES configuration sets and event destinations on the SES emulator, and its schedule
 * groups on the Scheduler emulator, through their APIs as CloudFormation would call them:
 * - AWS::SES::ConfigurationSet (Name, DeliveryOptions, SuppressionOptions, TrackingOptions, ...:
 *   https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-ses-configurationset.html)
 *   -> CreateConfigurationSet (ReputationOptions too:
 *   https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-ses-configurationset-reputationoptions.html);
 *   the suppression options are put again on every start (a kept set too).
 * - AWS::SES::ConfigurationSetEventDestination: CloudFormation spells event types in camel case
 *   (`deliveryDelay`), the SES v2 API in upper snake case (`DELIVERY_DELAY`), and the topic `TopicARN`.
 * - AWS::Scheduler::ScheduleGroup -> CreateScheduleGroup.
 * A property the local cloud does not apply throws (e.g. a dedicated IP pool or VDM options).
 */
import {
  CreateConfigurationSetCommand,
  CreateConfigurationSetEventDestinationCommand,
  PutConfigurationSetSuppressionOptionsCommand,
  type EventType,
  type SESv2Client,
  type SuppressionListReason,
  type TlsPolicy,
} from '@aws-sdk/client-sesv2';
import { CreateScheduleGroupCommand, type SchedulerClient } from '@aws-sdk/client-scheduler';
import type { DeployedStack } from './deployed-stack';
import { ignoreExists } from './ignore-exists';

interface ConfigurationSetProperties {
  Name: string;
  DeliveryOptions?: { TlsPolicy?: TlsPolicy; SendingPoolName?: string; MaxDeliverySeconds?: number };
  SuppressionOptions?: { SuppressedReasons?: SuppressionListReason[] };
  ReputationOptions?: { ReputationMetricsEnabled?: boolean };
  Tags?: unknown;
}

interface EventDestinationProperties {
  ConfigurationSetName: string;
  EventDestination: { Name: string; Enabled?: boolean; MatchingEventTypes: string[]; SnsDestination?: { TopicARN: string } };
}

const APPLIED_SET_PROPERTIES = new Set(['Name', 'DeliveryOptions', 'SuppressionOptions', 'ReputationOptions', 'Tags']);

/** `deliveryDelay` -> `DELIVERY_DELAY`. */
export function eventTypeOf(cloudFormationName: string): EventType {
  return cloudFormationName.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase() as EventType;
}

export async function deployEmail(stack: DeployedStack, clients: { ses: SESv2Client; scheduler: SchedulerClient }): Promise<void> {
  for (const id of stack.ofType('AWS::SES::ConfigurationSet')) {
    const set = stack.properties<ConfigurationSetProperties>(id);
    const unknown = Object.keys(set).filter((key) => !APPLIED_SET_PROPERTIES.has(key));
    if (unknown.length > 0) throw new Error(`${id}: the local cloud does not apply ${unknown.join(', ')} of a configuration set`);
    if (set.DeliveryOptions?.SendingPoolName) throw new Error(`${id}: the local cloud has no dedicated IP pools`);
    await clients.ses
      .send(
        new CreateConfigurationSetCommand({
          ConfigurationSetName: set.Name,
          ...(set.DeliveryOptions ? { DeliveryOptions: set.DeliveryOptions } : {}),
          // ReputationOptions as CloudFormation maps them onto CreateConfigurationSet's (the set's reputation
          // metrics; the emulator keeps them and publishes no metrics: there is no CloudWatch locally).
          ...(set.ReputationOptions
            ? { ReputationOptions: { ReputationMetricsEnabled: set.ReputationOptions.ReputationMetricsEnabled === true } }
            : {}),
        }),
      )
      .catch(ignoreExists);
    if (set.SuppressionOptions) {
      await clients.ses.send(
        new PutConfigurationSetSuppressionOptionsCommand({
          ConfigurationSetName: set.Name,
          SuppressedReasons: set.SuppressionOptions.SuppressedReasons ?? [],
        }),
      );
    }
  }
  for (const id of stack.ofType('AWS::SES::ConfigurationSetEventDestination')) {
    const { ConfigurationSetName, EventDestination: destination } = stack.properties<EventDestinationProperties>(id);
    if (!destination.SnsDestination) throw new Error(`${id}: the local cloud publishes SES events to SNS only`);
    await clients.ses
      .send(
        new CreateConfigurationSetEventDestinationCommand({
          ConfigurationSetName,
          EventDestinationName: destination.Name,
          EventDestination: {
            Enabled: destination.Enabled ?? false,
            MatchingEventTypes: destination.MatchingEventTypes.map(eventTypeOf),
            SnsDestination: { TopicArn: destination.SnsDestination.TopicARN },
          },
        }),
      )
      .catch(ignoreExists);
  }
  for (const id of stack.ofType('AWS::Scheduler::ScheduleGroup')) {
    await clients.scheduler.send(new CreateScheduleGroupCommand({ Name: stack.record(id).name! })).catch(ignoreExists);
  }
}
