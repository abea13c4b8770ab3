/**
 * A burst against SES's send rate: N emails accepted at once (POST /emails/batch, 100 a call) by a stack
 * whose local SES allows RATE recipients a second (LOCAL_SES_MAX_SEND_RATE), as a new production SES
 * account does (~14/s). Prints how long SES took to receive them all against the ideal N/RATE, how many
 * sends SES refused (429s, the local SES's `/_local/account` count), the send DLQ's depth and whether
 * every email was delivered. Asserts nothing; exits 1 when an email is missing or went through the DLQ.
 *
 *   npm run bench:ses-quota [-- --count 500 --rate 14 --pace 14]
 *
 * --pace sets the rate the workers pace to (SES_MAX_SEND_RATE); by default they pace to 90% of SES's
 * MaxSendRate, leaving SES's bucket room for sends that reach it late and together.
 *
 * Method: one in-memory stack (bench/lib/bench-stack.ts); an account on the dedicated plan with a verified
 * domain (no sandbox caps); N sends to success+<n>@simulator.amazonses.com, one recipient each; the time
 * is from the first send SES received to the last (the local SES mailbox's received_at).
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { dedicatedSender } from './lib/fixtures';
import { loadProduct as load, withInMemoryStack } from './lib/bench-stack';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '500' }, rate: { type: 'string', default: '14' }, pace: { type: 'string' } },
});
const COUNT = Number(values.count);
const RATE = Number(values.rate);
/** --pace: the rate the workers pace to (SES_MAX_SEND_RATE), instead of 90% of SES's (the default). */
const PACE = values.pace !== undefined ? Number(values.pace) : null;

async function main(): Promise<void> {
  const env = {
    LOCAL_SES_MAX_SEND_RATE: String(RATE),
    LOCAL_QUEUE_VISIBILITY_SECONDS: '2',
    ...(PACE !== null ? { SES_MAX_SEND_RATE: String(PACE) } : {}),
  };
  const ok = await withInMemoryStack('ses-quota', { env }, async ({ stack, info }) => {
    const { buildServices } = load('shared/services');
    const { loadConfig } = load('shared/config/config');
    const { createAccount } = load('shared/usecases/access/accounts');
    const services = buildServices(loadConfig(process.env));
    const sqs = new SQSClient({ region: info.env.AWS_REGION, endpoint: info.env.AWS_ENDPOINT_URL_SQS });
    const sesUrl = info.env.AWS_ENDPOINT_URL_SESV2!;

    const { call, domain } = await dedicatedSender(createAccount, services, stack.apiUrl, 'quota');
    const localAccount = async (): Promise<{ throttled: number }> =>
      (await fetch(`${sesUrl}/_local/account`)).json() as Promise<{ throttled: number }>;
    const throttledBefore = (await localAccount()).throttled;

    const acceptStart = Date.now();
    const ids: string[] = [];
    for (let start = 0; start < COUNT; start += 100) {
      const emails = Array.from({ length: Math.min(100, COUNT - start) }, (_, i) => ({
        from: `bench@${domain}`,
        to: `success+${start + i}@simulator.amazonses.com`,
        subject: `q ${start + i}`,
        text: 't',
      }));
      const { data } = await call('POST', '/emails/batch', { emails });
      ids.push(...data.map((item: { id: string }) => item.id));
    }
    const acceptedMs = Date.now() - acceptStart;

    const wanted = new Set(ids);
    let perEmail = new Set<string>();
    const received = async (): Promise<number[]> => {
      const { messages } = (await call('GET', `/_local/ses/messages?since=${new Date(acceptStart - 1000).toISOString()}`)) as {
        messages: { received_at: string; tags: Record<string, string> }[];
      };
      const ours = messages.filter((m) => wanted.has(m.tags.email_id ?? ''));
      perEmail = new Set(ours.map((m) => m.tags.email_id!));
      return ours.map((m) => Date.parse(m.received_at));
    };
    const deadline = Date.now() + Math.max(120_000, (COUNT / RATE) * 4000);
    let times = await received();
    while (times.length < COUNT && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      times = await received();
    }
    times.sort((a, b) => a - b);
    const spanS = times.length ? (times.at(-1)! - times[0]!) / 1000 : NaN;
    // The stack's own name for the send DLQ (stack.json's resources: names carry the stack's prefix).
    const dlqName = (info as { resources?: { queues?: { send?: { dlqName?: string } } } }).resources?.queues?.send?.dlqName;
    if (!dlqName) throw new Error('the stack file names no send DLQ');
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: dlqName }));
    const dlq = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
    );
    const dlqDepth =
      Number(dlq.Attributes?.ApproximateNumberOfMessages ?? 0) + Number(dlq.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
    const throttled = (await localAccount()).throttled - throttledBefore;
    // The budget's turns used from the first send to the last reserved one, at the rate the workers pace to:
    // above COUNT, the turns of sends that came back from their hold too late and took a new one (the old
    // one passed unused: time lost to the burst).
    const { paceRateOf } = load('shared/domain/ses/send-quota');
    const paceRate = paceRateOf(RATE, PACE) as number;
    const reservedUntil = (await services.sesSendBudget.reservedUntil(paceRate)) as number;
    const turns = times.length ? Math.round(((reservedUntil - times[0]!) * paceRate) / 1000) : NaN;
    sqs.destroy();

    console.log(`ses-quota bench: ${COUNT} emails, local SES at ${RATE} recipients/s`);
    console.log(`  accepted (POST /emails/batch x${Math.ceil(COUNT / 100)}):   ${(acceptedMs / 1000).toFixed(1)} s`);
    console.log(
      `  received by SES:                  ${times.length}/${COUNT}${perEmail.size < times.length ? ` (${times.length - perEmail.size} duplicate sends!)` : ''}`,
    );
    console.log(
      `  first to last SES receipt:        ${spanS.toFixed(1)} s (ideal ${(COUNT / RATE).toFixed(1)} s at ${RATE}/s; ${(times.length / spanS).toFixed(1)}/s achieved)`,
    );
    console.log(
      `  budget turns used:                ${turns} for ${COUNT} sends at ${paceRate.toFixed(1)}/s (${turns - COUNT} taken again after a late return)`,
    );
    console.log(`  sends SES refused (429):          ${throttled}`);
    console.log(`  send DLQ depth:                   ${dlqDepth}`);
    console.log(`  load average (1 min):             ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs`);
    return times.length === COUNT && perEmail.size === COUNT && dlqDepth === 0;
  });
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
