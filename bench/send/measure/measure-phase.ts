/**
 * One measured phase: a closed loop of API sends (or of one floor's) at a concurrency for a duration,
 * with every counter taken around it: client latencies and outcomes, CPU during the phase and until its
 * backlog is drained, the floor's step timings, and (when observing) the SDK calls of the request path
 * and of the whole pipeline.
 */
import { closedLoop, HttpClient } from '../../lib/load';
import { lambdaUsageBetween, type LambdaUsage } from '../../lib/cost/lambda-usage';
import { hrtimeMicros } from '../clock';
import type { Floors } from '../floors/floors';
import type { FloorName } from '../options';
import type { Measured, Window } from '../results';
import type { ApiSender } from '../sender';
import type { CpuMeter } from './cpu-meter';
import type { PipelineProbe } from '../../lib/pipeline-drain';
import type { OpensMeasured } from './tracked-opens';
import type { StreamWatch } from '../../lib/cost/stream-watch';
import type { SdkCounter } from './sdk-counts';

export type MeasurePhase = (name: string, concurrency: number, durationMs: number, floor?: FloorName) => Promise<Measured>;

export function phaseMeasurer(context: {
  targetLabel: string;
  apiUrl: string;
  sender: ApiSender;
  floors?: Floors;
  cpu: CpuMeter;
  /** Present when the SDK preload observes the stack (--count-calls, --aws-latency). */
  sdk?: SdkCounter;
  pipeline: PipelineProbe;
  /** --cost: reads what Lambda would bill so far (the stack's /health). */
  lambda?: () => Promise<LambdaUsage>;
  /** --cost: a reader of the table's stream from the phase's start to its drain (the partition model's writes). */
  streamWatch?: () => Promise<StreamWatch>;
  /** --tracked with --cost: opens each delivered email of an API phase once and prices the opens. */
  opens?: (ids: string[]) => Promise<OpensMeasured>;
}): MeasurePhase {
  const { sender, cpu, sdk, pipeline } = context;
  return async (name, concurrency, durationMs, floor) => {
    const client = new HttpClient(context.apiUrl, concurrency);
    const floorRun = floor ? context.floors![floor] : undefined;
    floorRun?.reset();
    const operation = floorRun ? (n: number) => floorRun.send(n) : (n: number) => sender.apiSend(client, n);
    const firstId = sender.acceptedIds.length;
    const watch = floor ? undefined : await context.streamWatch?.();
    const sdkBefore = await sdk?.mark();
    const lambdaBefore = await context.lambda?.();
    const cpuBefore = cpu.mark();
    const window: Window = { from: hrtimeMicros(), to: 0, fromMs: Date.now(), toMs: 0 };
    const result = await closedLoop(concurrency, durationMs, () => operation(sender.nextNumber()));
    window.to = hrtimeMicros();
    window.toMs = Date.now();
    const cpuDuring = cpu.since(cpuBefore);
    client.close();
    const sends = result.latencies.length || 1;
    const requestPath = sdk ? await sdk.requestPath(sdkBefore!) : undefined;
    const backlog = await pipeline.backlog();
    const drainMs = await pipeline.drain();
    const cpuWithDrain = cpu.since(cpuBefore);
    const drainedAt = hrtimeMicros();
    const wholePipeline = sdk ? await sdk.pipeline(sdkBefore!, window) : undefined;
    const streamed = await watch?.stop();
    const lambda = lambdaBefore ? lambdaUsageBetween(lambdaBefore, await context.lambda!()) : undefined;
    const opens = !floor && context.opens ? await context.opens(sender.acceptedIds.slice(firstId)) : undefined;
    return {
      target: context.targetLabel,
      name,
      floor,
      result,
      steps: floorRun ? floorRun.steps.map((step, i) => ({ name: step, meanMs: floorRun.stepMs[i]! / sends })) : undefined,
      transactAttemptsPerSend: floorRun ? floorRun.transactAttempts() / sends : undefined,
      cpu: cpuDuring,
      cpuWithDrain,
      backlog,
      drainMs,
      drainedAt,
      window,
      ...requestPath,
      ...wholePipeline,
      lambda,
      opens,
      partitionWrites: streamed?.units,
    };
  };
}
