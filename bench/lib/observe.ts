/**
 * Reads what sdk-preload.cjs wrote (BENCH_SDK_DIR): per thread, the running counts of SDK calls by
 * origin, service and operation, the latencies injected under --aws-latency, and the DynamoDB item
 * writes per second (hot items).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Origin = 'product' | 'event-source' | 'emulator' | 'local-cloud' | 'bench' | 'bench-control' | 'test' | 'unknown';

export interface SdkThreadState {
  pid: number;
  threadId: number;
  /** OS thread id (for /proc/<pid>/task/<tid>). */
  tid: number;
  mainThread: boolean;
  argv1: string;
  /** "origin\tservice\toperation" -> attempts so far. */
  calls: Record<string, number>;
  /** "service operation" -> [count, total ms] injected so far. */
  injected: Record<string, [number, number]>;
  /** "origin\tservice\tmeter" -> amount metered so far (BENCH_COST: capacity units, SQS requests, S3 bytes). */
  units?: Record<string, number>;
  /** "<table or index>\t<partition key>" -> read units of the product's calls so far (BENCH_COST). */
  partitionReads?: Record<string, number>;
}

export interface CallKey {
  origin: Origin;
  service: string;
  operation: string;
}

export const splitCall = (key: string): CallKey => {
  const [origin, service, operation] = key.split('\t') as [Origin, string, string];
  return { origin, service, operation };
};

/** Every thread's state, keyed by "pid-threadId". */
export function readSdkStates(dir: string): Map<string, SdkThreadState> {
  const states = new Map<string, SdkThreadState>();
  if (!existsSync(dir)) return states;
  for (const file of readdirSync(dir).filter((name) => name.startsWith('sdk-') && name.endsWith('.json'))) {
    try {
      const state = JSON.parse(readFileSync(join(dir, file), 'utf8')) as SdkThreadState;
      states.set(`${state.pid}-${state.threadId}`, state);
    } catch {
      // being rewritten: the next read has it
    }
  }
  return states;
}

/** What was metered (BENCH_COST) between two snapshots, every thread, by "origin\tservice\tmeter". */
export function unitsBetween(before: Map<string, SdkThreadState>, after: Map<string, SdkThreadState>): Record<string, number> {
  return meteredBetween(before, after, 'units');
}

/** The product's read units by partition (BENCH_COST) between two snapshots, every thread. */
export function partitionReadsBetween(before: Map<string, SdkThreadState>, after: Map<string, SdkThreadState>): Record<string, number> {
  return meteredBetween(before, after, 'partitionReads');
}

function meteredBetween(
  before: Map<string, SdkThreadState>,
  after: Map<string, SdkThreadState>,
  field: 'units' | 'partitionReads',
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [id, state] of after) {
    const earlier = before.get(id)?.[field] ?? {};
    for (const [key, amount] of Object.entries(state[field] ?? {})) {
      const delta = amount - (earlier[key] ?? 0);
      if (delta > 0) out[key] = (out[key] ?? 0) + delta;
    }
  }
  return out;
}

/** Failed conditional writes between two snapshots, every thread, by "origin\tservice\toperation". */
export function failuresBetween(before: Map<string, SdkThreadState>, after: Map<string, SdkThreadState>): Record<string, number> {
  const asCalls = (states: Map<string, SdkThreadState>) =>
    new Map(
      [...states].map(([id, state]) => [
        id,
        { ...state, calls: (state as SdkThreadState & { conditionalFailures?: Record<string, number> }).conditionalFailures ?? {} },
      ]),
    );
  return callsBetween(asCalls(before), asCalls(after), () => true);
}

/** Calls made between two snapshots by the threads `which` selects, by "origin\tservice\toperation". */
export function callsBetween(
  before: Map<string, SdkThreadState>,
  after: Map<string, SdkThreadState>,
  which: (state: SdkThreadState) => boolean,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [id, state] of after) {
    if (!which(state)) continue;
    const earlier = before.get(id)?.calls ?? {};
    for (const [key, count] of Object.entries(state.calls)) {
      const delta = count - (earlier[key] ?? 0);
      if (delta > 0) out[key] = (out[key] ?? 0) + delta;
    }
  }
  return out;
}

/** Injected latency between two snapshots (all threads): "service operation" -> {count, meanMs}. */
export function injectedBetween(
  before: Map<string, SdkThreadState>,
  after: Map<string, SdkThreadState>,
): Record<string, { count: number; meanMs: number }> {
  const sums: Record<string, [number, number]> = {};
  for (const [id, state] of after) {
    const earlier = before.get(id)?.injected ?? {};
    for (const [key, [count, total]] of Object.entries(state.injected ?? {})) {
      const [count0, total0] = earlier[key] ?? [0, 0];
      sums[key] ??= [0, 0];
      const entry = sums[key];
      entry[0] += count - count0;
      entry[1] += total - total0;
    }
  }
  return Object.fromEntries(
    Object.entries(sums)
      .filter(([, [count]]) => count > 0)
      .map(([key, [count, total]]) => [key, { count, meanMs: total / count }]),
  );
}

export interface HotItem {
  key: string;
  /** The key with ids, dates and hashes replaced by placeholders: which kind of item it is. */
  shape: string;
  /** Mean writes per second over the window's full seconds. */
  perSecond: number;
  /** Most writes in one second. */
  maxPerSecond: number;
}

export interface HotItems {
  seconds: number;
  /** All DynamoDB item writes per second (mean, and the busiest second). */
  writesPerSecond: number;
  maxWritesPerSecond: number;
  top: HotItem[];
}

export function shapeOf(key: string): string {
  return key
    .replace(/\b([a-z]{2,3})_[0-9A-HJKMNP-TV-Z]{26}\b/g, '<$1>')
    .replace(/\b[0-9a-f]{64}\b/g, '<sha256>')
    .replace(/[^#|\s]+@[^#|\s]+/g, '<address>')
    .replace(/\b\d{4}-\d{2}(-\d{2})?\b/g, '<period>');
}

/**
 * The most-written item keys over the full seconds of [fromMs, toMs] (epoch ms), from every thread's
 * writes log (each second keeps its top keys per thread).
 */
export function hotItems(dir: string, fromMs: number, toMs: number, top = 5): HotItems {
  const first = Math.ceil(fromMs / 1000);
  const last = Math.floor(toMs / 1000) - 1;
  const seconds = Math.max(0, last - first + 1);
  const totals = new Map<number, number>();
  const perKey = new Map<string, Map<number, number>>();
  if (existsSync(dir) && seconds > 0) {
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.writes.jsonl'))) {
      for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
        if (!line) continue;
        let entry: { second: number; total: number; top: [string, number][] };
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        if (entry.second < first || entry.second > last) continue;
        totals.set(entry.second, (totals.get(entry.second) ?? 0) + entry.total);
        for (const [key, count] of entry.top) {
          const bySecond = perKey.get(key) ?? new Map<number, number>();
          bySecond.set(entry.second, (bySecond.get(entry.second) ?? 0) + count);
          perKey.set(key, bySecond);
        }
      }
    }
  }
  const items: HotItem[] = [...perKey].map(([key, bySecond]) => {
    const counts = [...bySecond.values()];
    return { key, shape: shapeOf(key), perSecond: counts.reduce((a, b) => a + b, 0) / (seconds || 1), maxPerSecond: Math.max(...counts) };
  });
  items.sort((a, b) => b.perSecond - a.perSecond || b.maxPerSecond - a.maxPerSecond);
  const allTotals = [...totals.values()];
  return {
    seconds,
    writesPerSecond: allTotals.reduce((a, b) => a + b, 0) / (seconds || 1),
    maxWritesPerSecond: allTotals.length ? Math.max(...allTotals) : 0,
    top: items.slice(0, top),
  };
}
