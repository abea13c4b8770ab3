/** Port: the service events use cases publish (the webhook-events queue in AWS: shared/adapters/aws/sqs-event-publisher.ts). */
import type { ServiceEventMessage } from '../domain/messages';

/** Publishes service events for webhook fan-out (one queue message per event, `serviceEventSchema`). */
export interface EventPublisher {
  publish(events: ServiceEventMessage[]): Promise<void>;
}
