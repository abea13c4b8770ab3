/**
 * The EventBridge Scheduler client (./client-options.ts).
 */
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { Config } from '../../config/config';
import { withClientHooks } from './client-hooks';
import { clientOptions } from './client-options';

export function createSchedulerClient(config: Config): SchedulerClient {
  return withClientHooks(new SchedulerClient(clientOptions(config, 'scheduler')));
}
