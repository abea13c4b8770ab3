/**
 * What a stack bench that is not bench:send (bench:smtp, bench:inbound) can observe in the stack, by flag:
 *  --count-calls  every SDK call of every process and thread of the stack (the relay task's included),
 *                 per message of a phase, by origin and operation (lib/sdk-preload.cjs);
 *  --cpu-prof     every thread sampled (lib/cpu-profile-preload.cjs), each phase's busiest threads and their
 *                 hottest functions;
 *  --cost         what AWS bills by, priced (lib/cost/).
 * The stack's environment turns the preloads on; a mark before a phase, and after it (and the caller's
 * drain) what happened since, printed. With --cpu-prof, `answered` marks the end of a phase's requests and
 * `since` then splits one process's main thread (the API's) over the requests alone by whose work it was
 * (`ownerOf`): the request path's own CPU per message.
 */
import { join } from 'node:path';
import { bucketOf, profiledThreads, splitByOwner, summariseCpuProfiles, type Owner } from './cpu-profile';
import { threadCpuSeconds } from './process-tree';
import { costMeterAt, printCostTable, printPrices, type CostMark, type CostSession } from './cost/cost-session';
import type { Cost } from './cost/price-usage';
import { callsBetween, readSdkStates, splitCall, type SdkThreadState } from './observe';
import { table } from './stats';

/** How often the CPU preload writes a chunk of each thread's profile (ms). */
const CPU_PROFILE_CHUNK_MS = 2000;
const SETTLE_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const micros = () => Number(process.hrtime.bigint() / 1000n);

export interface ObserveFlags {
  countCalls: boolean;
  cpuProf: boolean;
  cost: boolean;
}

export function observeFlags(args: readonly string[]): ObserveFlags {
  return { countCalls: args.includes('--count-calls'), cpuProf: args.includes('--cpu-prof'), cost: args.includes('--cost') };
}

export interface PhaseObservation {
  label: string;
  messages: number;
  /** Per message: "origin service operation" -> calls, every process and thread of the stack. */
  calls?: Record<string, number>;
  cost?: Cost;
  /** Per thread with work in the window: busy ms per message and the hottest functions. */
  profiles?: { thread: string; busyMsPerMessage: number; kinds: [string, number][]; functions: [string, number][] }[];
  /** The main thread of the process `since` was given, over the requests alone: CPU ms per message by owner (/proc, split by its profile). */
  requestPath?: Record<Owner, number>;
}

interface Mark {
  sdk: Map<string, SdkThreadState>;
  cost?: CostMark;
  fromMicros: number;
  /** CPU seconds of each profiled thread ("pid tid"), when --cpu-prof. */
  threadCpu: Map<string, number>;
}

/** The end of a phase's requests (before the drain): the time and each profiled thread's CPU then. */
export interface Answered {
  toMicros: number;
  threadCpu: Map<string, number>;
}

export class StackObserver {
  private readonly sdkDir: string;
  private readonly profDir: string;
  private readonly meter: CostSession;
  readonly observations: PhaseObservation[] = [];

  constructor(
    readonly flags: ObserveFlags,
    scratch: string,
  ) {
    this.sdkDir = join(scratch, 'observe-sdk');
    this.profDir = join(scratch, 'observe-cpu');
    this.meter = costMeterAt(this.sdkDir);
  }

  /** The stack's environment for the flags (merge into spawnStack's env). */
  stackEnv(): Record<string, string> {
    const preloads = [
      ...(this.flags.cpuProf ? ['cpu-profile-preload.cjs'] : []),
      ...(this.flags.countCalls || this.flags.cost ? ['sdk-preload.cjs'] : []),
    ];
    if (preloads.length === 0) return {};
    return {
      NODE_OPTIONS: [process.env.NODE_OPTIONS ?? '', ...preloads.map((file) => `--require ${join(__dirname, file)}`)].join(' ').trim(),
      ...(this.flags.countCalls || this.flags.cost ? { BENCH_SDK_DIR: this.sdkDir } : {}),
      ...(this.flags.cost ? { BENCH_COST: '1' } : {}),
      ...(this.flags.cpuProf ? { CPU_PROFILE_DIR: this.profDir, CPU_PROFILE_CHUNK_MS: String(CPU_PROFILE_CHUNK_MS) } : {}),
    };
  }

  async mark(apiUrl: string): Promise<Mark> {
    await sleep(SETTLE_MS);
    return {
      sdk: readSdkStates(this.sdkDir),
      cost: this.flags.cost ? await this.meter.mark(apiUrl) : undefined,
      fromMicros: micros(),
      threadCpu: this.threadCpu(),
    };
  }

  /** When a phase's requests are answered (before the caller drains the pipeline). */
  answered(): Answered {
    return { toMicros: micros(), threadCpu: this.threadCpu() };
  }

  private threadCpu(): Map<string, number> {
    if (!this.flags.cpuProf) return new Map();
    return new Map(
      profiledThreads(this.profDir).map((thread) => [`${thread.pid} ${thread.tid}`, threadCpuSeconds(thread.pid, thread.tid)]),
    );
  }

  /** Once the phase's messages are through (the caller drained the pipeline): what happened since `mark`. */
  async since(
    mark: Mark,
    apiUrl: string,
    label: string,
    counts: { messages: number; apiRequests: number },
    requestPath?: { answered: Answered; pid: number },
  ): Promise<PhaseObservation> {
    const toMicros = micros();
    await sleep(SETTLE_MS);
    const n = Math.max(1, counts.messages);
    const observation: PhaseObservation = { label, messages: counts.messages };
    if (this.flags.countCalls) {
      const calls = callsBetween(mark.sdk, readSdkStates(this.sdkDir), () => true);
      observation.calls = Object.fromEntries(
        Object.entries(calls)
          .map(([key, count]) => {
            const { origin, service, operation } = splitCall(key);
            return [`${origin} ${service} ${operation}`, count / n] as [string, number];
          })
          .sort((a, b) => b[1] - a[1]),
      );
    }
    if (mark.cost)
      observation.cost = await this.meter.since(mark.cost, apiUrl, { emails: counts.messages, apiRequests: counts.apiRequests });
    if (this.flags.cpuProf) {
      await sleep(CPU_PROFILE_CHUNK_MS + 500);
      observation.profiles = profiledThreads(this.profDir)
        .map((thread) => {
          const summary = summariseCpuProfiles(thread.files, { from: mark.fromMicros, to: toMicros });
          const busy = summary.totalMs - summary.idleMs;
          const kinds = new Map<string, number>();
          for (const component of summary.components)
            if (component.name !== '(idle)') kinds.set(bucketOf(component.name), (kinds.get(bucketOf(component.name)) ?? 0) + component.ms);
          return {
            thread: `pid ${thread.pid} ${thread.role === 'main' ? 'main' : `thread ${thread.threadId}`} (${thread.argv1.split('/').slice(-2).join('/') || '?'})`,
            busyMsPerMessage: busy / n,
            kinds: [...kinds]
              .sort((a, b) => b[1] - a[1])
              .slice(0, 6)
              .map(([name, ms]) => [name, busy ? (100 * ms) / busy : 0] as [string, number]),
            functions: summary.functions
              .filter((fn) => !fn.name.startsWith('(idle)'))
              .slice(0, 8)
              .map((fn) => [fn.name, busy ? (100 * fn.ms) / busy : 0] as [string, number]),
          };
        })
        .filter((thread) => thread.busyMsPerMessage > 0.05)
        .sort((a, b) => b.busyMsPerMessage - a.busyMsPerMessage);
      if (requestPath) observation.requestPath = this.requestPathCpu(mark, requestPath.answered, requestPath.pid, n);
    }
    this.observations.push(observation);
    return observation;
  }

  /** `pid`'s main thread from `mark` to `answered`: its /proc CPU per message, split in its profile's proportions by owner. */
  private requestPathCpu(mark: Mark, answered: Answered, pid: number, n: number): Record<Owner, number> | undefined {
    const main = profiledThreads(this.profDir).find((thread) => thread.pid === pid && thread.role === 'main');
    if (!main) return undefined;
    const key = `${main.pid} ${main.tid}`;
    const cpuMs = ((answered.threadCpu.get(key) ?? NaN) - (mark.threadCpu.get(key) ?? NaN)) * 1000;
    const { owners } = summariseCpuProfiles(main.files, { from: mark.fromMicros, to: answered.toMicros });
    if (!Number.isFinite(cpuMs) || owners.product + owners.emulators + owners.unattributed <= 0) return undefined;
    return splitByOwner(cpuMs / n, owners);
  }

  /** Everything observed, after the bench's own tables. */
  print(print: (line?: string) => void, unit: string): void {
    for (const observation of this.observations) {
      if (observation.calls) {
        print();
        print(
          `SDK calls per ${unit}, ${observation.label} (every process and thread of the stack, phase start to drained; origin service operation):`,
        );
        print(
          table(
            ['call', `per ${unit}`],
            Object.entries(observation.calls)
              .filter(([, count]) => count >= 0.005)
              .map(([name, count]) => [name, count.toFixed(2)]),
          ),
        );
        const product = Object.entries(observation.calls)
          .filter(([name]) => name.startsWith('product '))
          .reduce((sum, [, count]) => sum + count, 0);
        print(`Product calls per ${unit}: ${product.toFixed(2)}.`);
      }
      if (observation.requestPath) {
        const { product, emulators, unattributed } = observation.requestPath;
        print();
        print(
          `Request path, ${observation.label} (the API's thread while the requests were answered, its CPU from /proc split by its profile's samples): the product's own ${product.toFixed(2)} ms per ${unit}, the emulators' ${emulators.toFixed(2)}, unattributed ${unattributed.toFixed(2)} (Node's sockets, GC).`,
        );
      }
      if (observation.profiles) {
        print();
        print(
          `CPU profile, ${observation.label}: busy ms per ${unit} by thread (sampled wall time in JavaScript, native code or GC), its kinds of work and hottest functions:`,
        );
        for (const thread of observation.profiles.slice(0, 4)) {
          print(`  ${thread.thread}: ${thread.busyMsPerMessage.toFixed(2)} ms per ${unit}`);
          print(`    kinds: ${thread.kinds.map(([name, pct]) => `${name} ${pct.toFixed(0)}%`).join(', ')}`);
          for (const [name, pct] of thread.functions) print(`    ${pct.toFixed(1).padStart(5)}%  ${name}`);
        }
      }
    }
    const costs = this.observations.filter((observation) => observation.cost);
    if (costs.length > 0) {
      print();
      print(
        `Cost per million ${unit}s beyond SES (--cost; each phase until the pipeline drained; the relay's and MX's Fargate task and NLB are fixed monthly costs, not in it):`,
      );
      for (const observation of costs) {
        print();
        printCostTable(print, `${observation.label} (${observation.messages} ${unit}s):`, observation.cost!);
      }
      print();
      printPrices(print);
    }
  }
}
