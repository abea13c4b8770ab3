/**
 * SDK calls around a phase (--count-calls, --aws-latency: the SDK preload's files): on the request path
 * (the stack's API thread; the bench process's own calls, the floors'), and over the whole pipeline
 * until drained (every thread of the stack: calls, failed conditional writes, injected latencies, hot
 * items).
 */
import { sleep } from '../clock';
import {
  callsBetween,
  failuresBetween,
  hotItems,
  injectedBetween,
  partitionReadsBetween,
  readSdkStates,
  unitsBetween,
  type HotItems,
  type SdkThreadState,
} from '../../lib/observe';
import type { Window } from '../results';

/** The preloads flush every 250 ms: wait this long before reading their files. */
export const SETTLE_MS = 300;

type States = Map<string, SdkThreadState>;

export interface SdkMark {
  stack: States;
  bench?: States;
}

export interface RequestPathCalls {
  requestCalls: Record<string, number>;
  benchCalls?: Record<string, number>;
}

export interface PipelineCalls {
  pipelineCalls: Record<string, number>;
  pipelineFailures: Record<string, number>;
  injected: Record<string, { count: number; meanMs: number }>;
  hot: HotItems;
  /** What AWS bills by (--cost), every thread, phase start to drained: "origin\tservice\tmeter" -> amount. */
  pipelineUnits: Record<string, number>;
  /** The product's read units by partition ("<table or index>\t<key>"), same window (--cost). */
  pipelinePartitionReads: Record<string, number>;
}

export interface SdkCounter {
  /** Settles, then reads every thread's counts. */
  mark(): Promise<SdkMark>;
  /** Since `mark`: the stack's API thread, and this process. */
  requestPath(mark: SdkMark): Promise<RequestPathCalls>;
  /** Since `mark`: every thread of the stack; hot items over `window`. */
  pipeline(mark: SdkMark, window: Window): Promise<PipelineCalls>;
}

/** `sdkDir`: the stack's preload files; `benchSdkDir`: this process's, when it has the preload. */
export function sdkCounter(sdkDir: string, benchSdkDir: string | undefined, stackPid: number): SdkCounter {
  return {
    mark: async () => {
      await sleep(SETTLE_MS);
      return { stack: readSdkStates(sdkDir), bench: benchSdkDir ? readSdkStates(benchSdkDir) : undefined };
    },
    requestPath: async (mark) => {
      await sleep(SETTLE_MS);
      return {
        requestCalls: callsBetween(mark.stack, readSdkStates(sdkDir), (state) => state.pid === stackPid && state.mainThread),
        benchCalls: benchSdkDir ? callsBetween(mark.bench!, readSdkStates(benchSdkDir), () => true) : undefined,
      };
    },
    pipeline: async (mark, window) => {
      await sleep(SETTLE_MS);
      const after = readSdkStates(sdkDir);
      return {
        pipelineCalls: callsBetween(mark.stack, after, () => true),
        pipelineFailures: failuresBetween(mark.stack, after),
        injected: injectedBetween(mark.stack, after),
        hot: hotItems(sdkDir, window.fromMs, window.toMs),
        pipelineUnits: unitsBetween(mark.stack, after),
        pipelinePartitionReads: partitionReadsBetween(mark.stack, after),
      };
    },
  };
}
