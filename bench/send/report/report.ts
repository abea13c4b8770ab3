/**
 * The printed report: its sections in order, each from its own module; the modes add theirs
 * (--aws-latency the model and the injected latency, --count-calls the SDK calls, --cost the dollars per
 * million, --count-calls or --aws-latency the hot items, --cpu-prof the profiles).
 */
import type { SendBenchOptions } from '../options';
import type { TargetResult } from '../results';
import { printCost } from './cost';
import { printCpu } from './cpu';
import { printCpuProfiles } from './cpu-profiles';
import { printProductCpu } from './product-cpu';
import { printDelivery } from './delivery';
import { printFloorRatios } from './floor-comparison';
import { printFloorTimings } from './floor-timings';
import { printFloorSteps, printHeader, printLatencyModel, type RunFacts } from './header';
import { printHotItems } from './hot-items';
import { printInStackLatency } from './in-stack-latency';
import { printInjectedLatency } from './injected-latency';
import { reportContext } from './report-context';
import { printResources } from './resources';
import { printSdkCalls } from './sdk-calls';
import { printTargets } from './targets';
import { printThroughput } from './throughput';

export function report(results: TargetResult[], options: SendBenchOptions, run: RunFacts): string {
  const out: string[] = [];
  const context = reportContext(results, options, out);
  printHeader(context, run);
  if (options.awsLatency) printLatencyModel(context);
  printFloorSteps(context);
  printThroughput(context);
  printInStackLatency(context);
  printFloorRatios(context);
  printCpu(context);
  printFloorTimings(context);
  if (options.countCalls) printSdkCalls(context);
  if (options.cost) printCost(context);
  if (options.awsLatency) printInjectedLatency(context);
  if (options.observe) printHotItems(context);
  printDelivery(context);
  printTargets(context);
  printResources(context);
  if (options.cpuProf) {
    printCpuProfiles(context);
    printProductCpu(context);
  }
  return out.join('\n');
}
