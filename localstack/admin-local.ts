/**
 * `npm run admin -- ...` (./admin.cjs runs it from a bundle): the operator CLI (functions/cli/admin.ts) against the local stack running on
 * DATA_DIR (default .data; `--data-dir` overrides), found through DATA_DIR/stack.json, whose functions'
 * environment (table name, endpoints, region, local credentials) becomes the CLI's. With `--aws`, or
 * when no local stack runs and TABLE_NAME is set, the environment is left as it is: AWS, with the usual
 * AWS credentials and TABLE_NAME (the stack's TableName output).
 *
 * The CLI itself only reads the environment; this wrapper is the one part that knows the local cloud.
 */
import { resolve } from 'node:path';
import { runAdmin, UsageError } from '#functions/cli/admin';
import { ENV } from '#shared/config/config';
import { readStackFile } from './cloud/stack/stack-file';

const TARGET_USAGE = `options: --aws (target AWS: needs ${ENV.tableName} and AWS credentials), --data-dir <dir> (default $DATA_DIR or .data)`;

/** Takes the wrapper's own options (--aws, --data-dir <dir> | --data-dir=<dir>) out of the arguments. */
export function splitArguments(argv: string[]): { aws: boolean; dataDir: string | undefined; rest: string[] } {
  let aws = false;
  let dataDir: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === '--aws') aws = true;
    else if (arg === '--data-dir') {
      dataDir = argv[++i];
      if (dataDir === undefined || dataDir.startsWith('--')) throw new UsageError('--data-dir needs a folder');
    } else if (arg.startsWith('--data-dir=')) dataDir = arg.slice('--data-dir='.length);
    else rest.push(arg);
  }
  return { aws, dataDir, rest };
}

/** Points process.env at the local stack of `dataDir` (unless --aws); the SDK reads it from there. */
function targetLocalStack(aws: boolean, dataDir: string): void {
  if (aws) {
    if (!process.env[ENV.tableName]) throw new UsageError(`--aws needs ${ENV.tableName} (the stack output TableName) in the environment.`);
    return;
  }
  const stack = readStackFile(dataDir);
  if (stack) {
    Object.assign(process.env, stack.env);
    return;
  }
  if (!process.env[ENV.tableName]) {
    throw new UsageError(
      `No running local stack found in ${dataDir} (start it with "npm start"), and ${ENV.tableName} is not set for AWS.`,
    );
  }
}

/** Runs the operator CLI on `argv` (the arguments after `npm run admin --`); resolves to its exit code. */
export async function main(argv: string[]): Promise<number> {
  let split: ReturnType<typeof splitArguments>;
  try {
    split = splitArguments(argv);
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    return 2;
  }
  const dataDir = resolve(split.dataDir ?? process.env.DATA_DIR ?? '.data');
  return runAdmin(split.rest, { prepareEnvironment: () => targetLocalStack(split.aws, dataDir), targetUsage: TARGET_USAGE });
}
