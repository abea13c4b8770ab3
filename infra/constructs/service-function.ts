import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Grant } from '../definitions';
import { BUNDLE_FILE, LAMBDA_HANDLER, functionCodeDir } from '../functions';
import { grantAccess, type ServiceResources } from './grants';
import { acknowledgeRule } from './nag';

/** Runtime of every function: bundles target node22 (the code also runs on the local Node 20). */
export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_22_X;
/**
 * Memory of a function whose definition sets no `memoryMb`: the light ones (docs/deploy.md, "Memory
 * sizing": CPU comes with memory, 1,769 MB = one vCPU; the definitions raise it where requests or cold
 * starts are CPU-bound on a user's path).
 */
export const FUNCTION_MEMORY_MB = 512;
/** What Lambda accepts. */
export const MIN_MEMORY_MB = 128;
export const MAX_MEMORY_MB = 10_240;

/** What every function of the stack shares. */
export interface FunctionDefaults {
  /** Directory holding one `<name>/index.js` bundle per function (see infra/build.ts). */
  functionsDir: string;
  resources: ServiceResources;
  /** Environment every function gets (settings such as SANDBOX_DOMAIN). */
  environment: Record<string, string>;
}

export interface ServiceFunctionProps extends FunctionDefaults {
  /** Definition name: bundle directory and function description. */
  name: string;
  grants: readonly Grant[];
  timeout: Duration;
  /** Lambda memory (MB); default FUNCTION_MEMORY_MB. */
  memoryMb?: number;
}

/**
 * One Lambda of the definitions: code from its esbuild bundle, arm64, the definition's grants
 * and the environment variables of the granted resources. Its role may write its own log group and
 * nothing else of CloudWatch Logs: no AWSLambdaBasicExecutionRole (logs:CreateLogGroup, CreateLogStream
 * and PutLogEvents on every log group of the account; cdk-nag IAM4), since the log group is the stack's.
 */
export class ServiceFunction extends Construct {
  readonly function: lambda.Function;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    if (
      props.memoryMb !== undefined &&
      (!Number.isInteger(props.memoryMb) || props.memoryMb < MIN_MEMORY_MB || props.memoryMb > MAX_MEMORY_MB)
    ) {
      throw new Error(
        `Function "${props.name}": memoryMb ${props.memoryMb} must be a whole number of MB from ${MIN_MEMORY_MB} to ${MAX_MEMORY_MB}`,
      );
    }
    const codeDir = functionCodeDir(props.functionsDir, props.name);
    if (!fs.existsSync(path.join(codeDir, BUNDLE_FILE))) {
      throw new Error(
        `No bundle for function "${props.name}": ${path.join(codeDir, BUNDLE_FILE)} is missing. Run \`npm run build\` first.`,
      );
    }

    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.function = new lambda.Function(this, 'Function', {
      description: `mailservice ${props.name}`,
      runtime: FUNCTION_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memoryMb ?? FUNCTION_MEMORY_MB,
      timeout: props.timeout,
      code: lambda.Code.fromAsset(codeDir),
      handler: LAMBDA_HANDLER,
      logGroup,
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
    });

    // CDK's Function gives the role it creates AWSLambdaBasicExecutionRole; logical ids stay as they are if
    // we take the managed policy off that role (L1 property) rather than pass a role of our own.
    const role = this.function.role?.node.defaultChild as iam.CfnRole | undefined;
    if (!role) throw new Error(`Function "${props.name}" has no role of its own`);
    role.managedPolicyArns = undefined;
    // CreateLogStream and PutLogEvents on this function's log group only (what Lambda needs to write its logs:
    // https://docs.aws.amazon.com/lambda/latest/dg/monitoring-cloudwatchlogs.html#monitoring-cloudwatchlogs-prereqs).
    logGroup.grantWrite(this.function);
    acknowledgeRule(
      this.function.node.defaultChild as lambda.CfnFunction,
      'L1',
      `Pinned to ${FUNCTION_RUNTIME.name} on purpose, a runtime in AWS's standard support (https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtimes.html): the bundles are built for it (infra/build.ts, esbuild target node22). Moving to a newer runtime is a deliberate change of FUNCTION_RUNTIME and of the bundles' target, tested as such, not one a static check should make.`,
    );

    const env = grantAccess(this, this.function, props.grants, props.resources);
    for (const [key, value] of Object.entries(env)) this.function.addEnvironment(key, value);
  }
}
