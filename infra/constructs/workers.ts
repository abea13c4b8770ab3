import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { QUEUES, WORKERS } from '../definitions';
import { ServiceFunction, type FunctionDefaults } from './service-function';
import { pascalCase } from './util';

/** One Lambda per WORKERS entry, fed by its queue with partial batch failures. */
export class Workers extends Construct {
  /** Lambda of each worker, by worker name. */
  readonly functions: Record<string, lambda.Function> = {};

  constructor(scope: Construct, id: string, props: FunctionDefaults) {
    super(scope, id);

    for (const worker of WORKERS) {
      const queueDef = QUEUES[worker.queue];
      if (worker.timeoutSeconds >= queueDef.visibilityTimeoutSeconds) {
        throw new Error(
          `Worker "${worker.name}": timeout ${worker.timeoutSeconds}s must stay below the visibility timeout of queue "${worker.queue}" (${queueDef.visibilityTimeoutSeconds}s)`,
        );
      }
      const fn = new ServiceFunction(this, pascalCase(worker.name), {
        ...props,
        name: worker.name,
        grants: worker.grants,
        timeout: Duration.seconds(worker.timeoutSeconds),
      }).function;
      // The event source adds the consume permissions it needs on its queue.
      fn.addEventSource(
        new SqsEventSource(props.resources.queues[worker.queue], {
          batchSize: worker.batchSize,
          reportBatchItemFailures: true,
          ...(worker.maxConcurrency ? { maxConcurrency: worker.maxConcurrency } : {}),
        }),
      );
      this.functions[worker.name] = fn;
    }
  }
}
