import * as ses from 'aws-cdk-lib/aws-ses';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { CONFIGURATION_SET } from '../definitions';
import { tlsRequiredConfigurationSet } from '#shared/adapters/aws/ses-configuration-sets';

export interface EmailProps {
  /** Topic of CONFIGURATION_SET.topic: SES publishes the sending events there. */
  eventsTopic: sns.ITopic;
}

/**
 * The SES configuration set every outbound message is sent with, and its SNS event destination.
 * The L2 event destination also adds the topic policy that lets SES (this account, this
 * configuration set) publish.
 */
export class Email extends Construct {
  readonly configurationSet: ses.ConfigurationSet;
  /** The twin for domains with tls_mode enforced: SES delivers only over TLS (shared/adapters/aws/ses-configuration-sets.ts). */
  readonly tlsRequiredConfigurationSet: ses.ConfigurationSet;

  constructor(scope: Construct, id: string, props: EmailProps) {
    super(scope, id);

    // SES's account-level suppression list is on by default and shared by every customer and tenant of
    // this one SES account; we keep our own lists per account and tenant (docs/suppressions.md), so both
    // sets turn it off: SuppressionOptions.SuppressedReasons [] ("do not use any suppression",
    // https://docs.aws.amazon.com/ses/latest/dg/sending-email-suppression-list-config-level.html).
    // localstack/cloud/template/deploy-email.ts does the same locally.
    // Reputation metrics on (ReputationOptions.ReputationMetricsEnabled): SES publishes the sets' own bounce
    // and complaint rates to CloudWatch besides the account's (docs/deliverability.md, "Reputation guard";
    // https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-ses-configurationset-reputationoptions.html).
    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: CONFIGURATION_SET.name,
      disableSuppressionList: true,
      reputationMetrics: true,
    });
    this.tlsRequiredConfigurationSet = new ses.ConfigurationSet(this, 'TlsRequiredConfigurationSet', {
      configurationSetName: tlsRequiredConfigurationSet(CONFIGURATION_SET.name),
      tlsPolicy: ses.ConfigurationSetTlsPolicy.REQUIRE,
      disableSuppressionList: true,
      reputationMetrics: true,
    });
    for (const [set, id] of [
      [this.configurationSet, 'SnsDestination'],
      [this.tlsRequiredConfigurationSet, 'TlsRequiredSnsDestination'],
    ] as const) {
      set.addEventDestination(id, {
        configurationSetEventDestinationName: CONFIGURATION_SET.eventDestinationName,
        destination: ses.EventDestination.snsTopic(props.eventsTopic),
        events: CONFIGURATION_SET.matchingEventTypes.map(toEmailSendingEvent),
      });
    }
  }

  get configurationSetName(): string {
    return this.configurationSet.configurationSetName;
  }
}

/** SESv2 event type ('DELIVERY_DELAY') -> CloudFormation matching event type ('deliveryDelay'). */
export function toEmailSendingEvent(type: string): ses.EmailSendingEvent {
  const event = (ses.EmailSendingEvent as Record<string, ses.EmailSendingEvent | undefined>)[type];
  if (event === undefined) {
    throw new Error(
      `Unknown SES event type "${type}" in CONFIGURATION_SET.matchingEventTypes (expected one of ${Object.keys(ses.EmailSendingEvent).join(', ')})`,
    );
  }
  return event;
}
