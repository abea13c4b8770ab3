import * as fs from 'node:fs';
import * as path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Grant } from '../definitions';
import { BUNDLE_FILE, LAMBDA_HANDLER, functionCodeDir } from '../functions';
import { grantAccess, type ServiceResources } from './grants';

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
 * and the environment variables of the granted resources.
 */
export class ServiceFunction extends Construct {
  readonly function: lambda.Function;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    if (props.memoryMb !== undefined && (!Number.isInteger(props.memoryMb) || props.memoryMb < MIN_MEMORY_MB || props.memoryMb > MAX_MEMORY_MB)) {
      throw new Error(`Function "${props.name}": memoryMb ${props.memoryMb} must be a whole number of MB from ${MIN_MEMORY_MB} to ${MAX_MEMORY_MB}`);
    }
    const codeDir = functionCodeDir(props.functionsDir, props.name);
    if (!fs.existsSync(path.join(codeDir, BUNDLE_FILE))) {
      throw new Error(`No bundle for function "${props.name}": ${path.join(codeDir, BUNDLE_FILE)} is missing. Run \`npm run build\` first.`);
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

    const env = grantAccess(this, this.function, props.grants, props.resources);
    for (const [key, value] of Object.entries(env)) this.function.addEnvironment(key, value);
  }
}
