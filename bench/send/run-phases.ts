/**
 * One checkout's run on its started stack, phase by phase: the sender set up, the floors (current
 * checkout only), the counters attached to the stack, the warm-up, the measured phases, accept-to-
 * delivered, then what is left after the run (dead letters, memory, CPU profiles).
 */
import { costMeterAt } from '../lib/cost/cost-session';
import { readLambdaUsage } from '../lib/cost/lambda-usage';
import { log } from './log';
import { watchStream } from '../lib/cost/stream-watch';
import { measureOpens } from './measure/tracked-opens';
import { rssMb } from '../lib/process-tree';
import { acceptToDelivered } from './accept-to-delivered';
import type { BenchSdk } from './bench-sdk';
import type { Checkout, SpawnedStackLike } from './checkout';
import { measuredPhases, warmUp } from './closed-loop-phases';
import { makeFloors, type Floors } from './floors/floors';
import { attachCpuProfiles } from './measure/cpu-profiles';
import { cpuMeter } from './measure/cpu-meter';
import { deadLetterDepths } from './measure/dead-letters';
import { phaseMeasurer } from './measure/measure-phase';
import { pipelineProbe } from '../lib/pipeline-drain';
import { sdkCounter } from './measure/sdk-counts';
import { discoverStackThreads } from './measure/stack-threads';
import type { SendBenchOptions } from './options';
import type { Target, TargetResult } from './results';
import { setUpSender, type ApiSender } from './sender';
import { openStackSession, type StackSession } from './stack-session';
import type { StackDirs } from './start-stack';

export interface TargetRun {
  target: Target;
  checkout: Checkout;
  commit: string;
  stack: SpawnedStackLike;
  dirs: StackDirs;
  options: SendBenchOptions;
  benchSdk?: BenchSdk;
}

export async function runPhases(run: TargetRun): Promise<TargetResult> {
  const { target, options } = run;
  const session = openStackSession(run.checkout, run.stack, run.dirs.dataDir, run.benchSdk);
  const sender = await setUpSender({
    apiUrl: run.stack.apiUrl,
    services: session.services,
    createAccount: session.createAccount,
    template: options.template,
    tracked: options.tracked,
    tenant: options.tenant,
    htmlKb: options.htmlKbs[0],
  });
  const idleRss = rssMb(session.pids);
  const floors = await floorsOf(run, session, sender);
  const floorNames = floors ? options.floors : [];
  const instruments = await instrument(run, session, sender, floors);
  await warmUp(instruments.measure, target.label, options.warmupMs, floorNames);
  const phases = await measuredPhases(instruments.measure, target.label, options.concurrencies, options.durationMs, floorNames, {
    sizes: options.htmlKbs,
    use: (kb) => sender.useHtmlKb(kb),
  });
  const delivery = await acceptToDelivered(target.label, run.stack.apiUrl, sender, options.deliveredSends);
  sender.setup.close();
  await floors?.close();
  const dlqDepths = await deadLetterDepths(session.control, instruments.queues, instruments.pipeline);
  const busyRss = rssMb(session.pids);
  if (options.cpuProf) await attachCpuProfiles(phases, run.dirs.profDir, session.stackPid);
  session.control.destroy();
  return {
    label: target.label,
    commit: run.commit,
    phases,
    ...delivery,
    idleRss,
    busyRss,
    dlqDepths,
    threadLabels: instruments.threads.map((thread) => thread.label),
    queueNames: instruments.queues.map((queue) => queue.name),
    floorSteps: Object.fromEntries(floorNames.map((floor) => [floor, floors![floor].steps])),
    domainName: sender.domainName,
  };
}

/** The floors, for the current checkout when any was asked for. */
async function floorsOf(run: TargetRun, session: StackSession, sender: ApiSender): Promise<Floors | undefined> {
  if (!run.target.withFloors || !run.options.floors.length) return undefined;
  return makeFloors({
    root: run.target.root,
    config: session.config,
    account: sender.account,
    secret: sender.secret,
    domainName: sender.domainName,
    conditionCheck: run.options.floorConditionCheck,
    benchSdk: run.benchSdk,
    apiSend: (n) => sender.apiSend(sender.setup, n),
    recipient: sender.recipient,
  });
}

/** The counters every phase is measured with: the worker queues' drain, the stack's threads and CPU, its SDK calls. */
async function instrument(run: TargetRun, session: StackSession, sender: ApiSender, floors: Floors | undefined) {
  const { options, dirs } = run;
  const queues = run.checkout.queues();
  const pipeline = pipelineProbe(
    session.control,
    queues.map((queue) => session.info.env[queue.envVar]).filter((url): url is string => Boolean(url)),
    log,
  );
  const threads = await discoverStackThreads(session.stackPid, {
    sdkDir: options.observe ? dirs.sdkDir : undefined,
    profDir: options.cpuProf ? dirs.profDir : undefined,
  });
  const measure = phaseMeasurer({
    targetLabel: run.target.label,
    apiUrl: run.stack.apiUrl,
    sender,
    floors,
    cpu: cpuMeter(session.stackPid, session.pids, threads),
    sdk: options.observe ? sdkCounter(dirs.sdkDir, run.benchSdk?.dir, session.stackPid) : undefined,
    pipeline,
    lambda: options.cost ? () => readLambdaUsage(run.stack.apiUrl) : undefined,
    streamWatch: options.cost
      ? () =>
          watchStream({
            endpoint: session.info.env.AWS_ENDPOINT_URL_DYNAMODB!,
            region: session.config.region,
            tableName: session.config.tableName,
            indexes: run.checkout.tableIndexes(),
          })
      : undefined,
    opens:
      options.cost && options.tracked
        ? (ids) => measureOpens({ apiUrl: run.stack.apiUrl, ids, meter: costMeterAt(dirs.sdkDir), pipeline })
        : undefined,
  });
  return { queues, pipeline, threads, measure };
}
