/**
 * What the bench measures: one phase (`Measured`: the load generator's result and every counter taken
 * around it) and one checkout's whole run (`TargetResult`). The measurement fills them, the report reads
 * them.
 */
import type { PhaseResult } from '../lib/load';
import type { LambdaUsage } from '../lib/cost/lambda-usage';
import type { HotItems } from '../lib/observe';
import type { OpensMeasured } from './measure/tracked-opens';
import type { ProfileSummary } from '../lib/cpu-profile';
import type { ProcessRole } from '../lib/process-tree';
import type { FloorName } from './options';

export interface Window {
  /** CLOCK_MONOTONIC microseconds (CPU profiles). */
  from: number;
  to: number;
  /** Epoch ms (hot items). */
  fromMs: number;
  toMs: number;
}

export interface CpuSplit {
  roles: Record<ProcessRole, number>;
  /** Stack process threads by label (seconds), when their OS thread ids are known. */
  threads: Record<string, number>;
  bench: number;
}

export interface Measured {
  target: string;
  /** 'API', or 'floor old' / 'floor new' / 'floor new-put'. */
  name: string;
  floor?: FloorName;
  result: PhaseResult;
  /** Floors: mean ms per step, and TransactWriteItems attempts per send. */
  steps?: { name: string; meanMs: number }[];
  transactAttemptsPerSend?: number;
  cpu: CpuSplit;
  /** From the phase's start to the end of its drain: the whole cost of the phase's emails. */
  cpuWithDrain: CpuSplit;
  backlog: number;
  drainMs: number;
  window: Window;
  /** SDK calls made during the phase by the stack's API thread (pid's main thread). */
  requestCalls?: Record<string, number>;
  /** SDK calls made by the bench process (the floor's own calls) during the phase. */
  benchCalls?: Record<string, number>;
  /** SDK calls made by every thread of the stack from the phase's start to the end of its drain. */
  pipelineCalls?: Record<string, number>;
  /** Failed conditional writes of every thread of the stack, same window as pipelineCalls. */
  pipelineFailures?: Record<string, number>;
  injected?: Record<string, { count: number; meanMs: number }>;
  hot?: HotItems;
  /** --cost: what was metered, every thread, phase start to drained ("origin\tservice\tmeter" -> amount). */
  pipelineUnits?: Record<string, number>;
  /** --cost: Lambda's invocations and billed duration by function over the same window. */
  lambda?: LambdaUsage;
  /** --cost: write units by partition ("<table or index>\t<key>"), from the table's stream, phase start to drained. */
  partitionWrites?: Record<string, number>;
  /** --cost: the product's read units by partition, same window. */
  pipelinePartitionReads?: Record<string, number>;
  /** --tracked with --cost: the phase's delivered emails opened once each, priced per million opens. */
  opens?: OpensMeasured;
  /** --cpu-prof: per thread label, the summary of the phase's window. */
  profiles?: { label: string; summary: ProfileSummary }[];
  /** --cpu-prof: the same from the phase's start until its backlog was delivered (cpuWithDrain's window). */
  profilesWithDrain?: { label: string; summary: ProfileSummary }[];
  /** CLOCK_MONOTONIC microseconds when the phase's backlog was delivered. */
  drainedAt: number;
}

export interface TargetResult {
  label: string;
  commit: string;
  phases: Measured[];
  accepted: number[];
  delivered: number[];
  undelivered: number;
  idleRss: number;
  busyRss: number;
  dlqDepths: Record<string, number>;
  threadLabels: string[];
  queueNames: string[];
  floorSteps: Partial<Record<FloorName, string[]>>;
  domainName: string;
}

/** A checkout to measure: `current` (with the floors) or the baseline. */
export interface Target {
  label: string;
  root: string;
  withFloors: boolean;
}
