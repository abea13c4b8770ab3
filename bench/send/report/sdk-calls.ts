/**
 * --count-calls: SDK calls per email, on the request path (API phases: the stack's API thread; floor
 * phases: the floor's own, from this process) and over the whole pipeline by origin and operation; the
 * failed conditional writes beside them; and the verdict on product calls per delivered email.
 */
import { splitCall } from '../../lib/observe';
import { table } from '../../lib/stats';
import type { Measured } from '../results';
import { PRODUCT_CALLS_GOAL, productCallsPerEmail, productCallsVerdict } from './product-calls';
import { perEmail, type ReportContext } from './report-context';

const ORIGIN_ORDER = ['product', 'event-source', 'emulator', 'local-cloud', 'bench', 'bench-control', 'test', 'unknown'];
const ORIGIN_TEXT: Record<string, string> = {
  product: "product (the service's own SDK calls)",
  'event-source': "event-source (the Lambda service's pollers: SQS receive/delete, stream reads; AWS-side on AWS)",
  emulator: "emulator (calls an emulator makes on AWS's behalf, e.g. SES -> SNS Publish; not ours on AWS)",
  'local-cloud': 'local-cloud (provisioning, health checks)',
};

type Calls = Record<string, number> | undefined;

const opName = (key: string) => {
  const { service, operation } = splitCall(key);
  return `${service} ${operation}`;
};
const sumOf = (calls: Calls, keys: string[]) => keys.reduce((sum, key) => sum + (calls?.[key] ?? 0), 0);
const byOriginThenOperation = (a: string, b: string) =>
  ORIGIN_ORDER.indexOf(splitCall(a).origin) - ORIGIN_ORDER.indexOf(splitCall(b).origin) || opName(a).localeCompare(opName(b));
/** The call keys of the stack's threads (not the bench's own) in any phase's `calls`, in report order. */
const stackKeys = (all: Measured[], calls: (phase: Measured) => Calls) =>
  [...new Set(all.flatMap((phase) => Object.keys(calls(phase) ?? {})))]
    .filter((key) => !['bench', 'bench-control'].includes(splitCall(key).origin))
    .sort(byOriginThenOperation);

export function printSdkCalls(context: ReportContext) {
  printRequestPath(context);
  printPipeline(context);
  printFailedConditionalWrites(context);
  printProductCalls(context);
}

/** Request path: the API thread's product calls (API phases), the bench's floor calls (floor phases). */
function printRequestPath({ print, all, phaseName }: ReportContext) {
  const requestOf = (phase: Measured): Record<string, number> => {
    const source = phase.floor ? (phase.benchCalls ?? {}) : (phase.requestCalls ?? {});
    const origin = phase.floor ? 'bench' : 'product';
    const out: Record<string, number> = {};
    for (const [key, count] of Object.entries(source))
      if (splitCall(key).origin === origin) out[opName(key)] = (out[opName(key)] ?? 0) + count;
    return out;
  };
  const requests = all.map(requestOf);
  const requestOps = [...new Set(requests.flatMap((calls) => Object.keys(calls)))].sort();
  print(
    "SDK calls on the request path, per accepted email (API phases: product calls made by the stack's API thread while the phase ran; floor phases: the floor's calls, from this process):",
  );
  print();
  print(
    table(
      ['operation', ...all.map(phaseName)],
      [
        ...requestOps.map((op) => [op, ...all.map((phase, i) => perEmail(requests[i]![op] ?? 0, phase))]),
        [
          'total',
          ...all.map((phase, i) =>
            perEmail(
              Object.values(requests[i]!).reduce((a, b) => a + b, 0),
              phase,
            ),
          ),
        ],
      ],
    ),
  );
  print();
}

/** Whole pipeline: every thread of the stack, by origin, phase start to drained. */
function printPipeline({ print, all, phaseName }: ReportContext) {
  const keys = stackKeys(all, (phase) => phase.pipelineCalls);
  print(
    "SDK calls of the whole stack per delivered email (every thread of every Node process of the stack, from the phase's start until drained; event-source counts include the pollers' empty receives, which grow with time, not with emails):",
  );
  print();
  const origins = ORIGIN_ORDER.filter((origin) => keys.some((key) => splitCall(key).origin === origin));
  const rows: string[][] = [];
  for (const origin of origins) {
    const these = keys.filter((key) => splitCall(key).origin === origin);
    for (const key of these) rows.push([origin, opName(key), ...all.map((phase) => perEmail(phase.pipelineCalls?.[key] ?? 0, phase))]);
    rows.push([origin, 'subtotal', ...all.map((phase) => perEmail(sumOf(phase.pipelineCalls, these), phase))]);
  }
  const productAndSources = keys.filter((key) => ['product', 'event-source'].includes(splitCall(key).origin));
  rows.push([
    'product + event-source',
    'total (what AWS would bill as our requests)',
    ...all.map((phase) => perEmail(sumOf(phase.pipelineCalls, productAndSources), phase)),
  ]);
  rows.push(['all', 'total', ...all.map((phase) => perEmail(sumOf(phase.pipelineCalls, keys), phase))]);
  print(table(['origin', 'operation', ...all.map(phaseName)], rows));
  print(
    "(In floor phases the floor's own calls come from this process and are not in this table: what remains is the pipeline behind the API.)",
  );
  for (const origin of origins) if (ORIGIN_TEXT[origin]) print(`  ${ORIGIN_TEXT[origin]}`);
  print();
}

/** Beside the calls: how many of them were conditional writes refused (a lost race or a duplicate). */
function printFailedConditionalWrites({ print, all, phaseName }: ReportContext) {
  const failureKeys = stackKeys(all, (phase) => phase.pipelineFailures);
  print(
    'Failed conditional writes per delivered email, beside the calls of that operation (failed / calls; ConditionalCheckFailedException, or TransactionCanceledException with a ConditionalCheckFailed reason, one per transaction; same threads and window as above):',
  );
  print();
  if (failureKeys.length) {
    const failureRows = failureKeys.map((key) => [
      splitCall(key).origin,
      opName(key),
      ...all.map((phase) => `${perEmail(phase.pipelineFailures?.[key] ?? 0, phase)} / ${perEmail(phase.pipelineCalls?.[key] ?? 0, phase)}`),
    ]);
    failureRows.push(['all', 'total failed', ...all.map((phase) => perEmail(sumOf(phase.pipelineFailures, failureKeys), phase))]);
    print(table(['origin', 'operation', ...all.map(phaseName)], failureRows));
  } else {
    print('  none in any phase.');
  }
  print();
}

function printProductCalls({ print, all, phaseName }: ReportContext) {
  print(`Product SDK calls per delivered email (goal <= ${PRODUCT_CALLS_GOAL}):`);
  for (const phase of all.filter((p) => p.name === 'API')) {
    const perDelivered = productCallsPerEmail(phase);
    print(`  ${phaseName(phase)}: ${perDelivered.toFixed(2)} -> ${productCallsVerdict(perDelivered)}`);
  }
  print();
}
