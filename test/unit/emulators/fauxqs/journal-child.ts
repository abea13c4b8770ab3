/**
 * A child process for the journal's kill test: fauxqs with the messaging journal on DATA_DIR, a queue
 * with a DLQ (redrive after 1 receive), a topic subscribed to the queue, a bucket. Prints `ready <port>`.
 */
import { startFauxqsServer } from '#localstack/cloud/services/fauxqs';
import { MessagingJournal } from '#localstack/cloud/messaging/messaging-journal';

async function main() {
  const fauxqs = await startFauxqsServer({ port: 0, host: 'localhost' });
  const journal = MessagingJournal.open(process.env.DATA_DIR!, fauxqs, (message) => console.error(message));
  const dlq = fauxqs.createQueue('kill-dlq');
  fauxqs.createQueue('kill-main', {
    attributes: { VisibilityTimeout: '1', RedrivePolicy: JSON.stringify({ maxReceiveCount: 1, deadLetterTargetArn: dlq.queueArn }) },
  });
  fauxqs.createTopic('kill-topic');
  fauxqs.subscribe({ topic: 'kill-topic', queue: 'kill-main', attributes: { RawMessageDelivery: 'true' } });
  fauxqs.createBucket('kill-bucket');
  const restored = journal.restore();
  console.log(`ready ${fauxqs.port} ${restored.messages} ${restored.objects}`);
  process.on('SIGTERM', () => {
    journal.close();
    void fauxqs.stop().then(() => process.exit(0));
  });
}

void main();
