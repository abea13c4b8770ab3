/**
 * Operator CLI (until the dashboard exists).
 *
 *   npm run --silent admin -- account create --email <address> [--plan free|pro|scale|dedicated] [--payment-method] [--tenants]
 *   npm run --silent admin -- account update --id <acc_...> [--plan ...] [--payment-method | --no-payment-method] [--tenants | --no-tenants]
 *
 * Target: the local stack running on DATA_DIR (default .data), found through DATA_DIR/stack.json; or AWS
 * when `--aws` is given (or no local stack runs and TABLE_NAME is set), with the usual AWS credentials
 * and TABLE_NAME (the stack's TableName output) in the environment.
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { readStackFile } from '../../localstack/cloud/stack-file';
import { isPlanName, PLAN_NAMES, type PlanName } from '../../shared/domain/accounts/plans';
import { isEmailAddress } from '../../shared/domain/emails/address';
import { AppError } from '../../shared/domain/errors';
import { loadConfig } from '../../shared/config';
import { buildServices } from '../../shared/services';
import { createAccount, updateAccount } from '../../shared/usecases/accounts';

class UsageError extends Error {}

const USAGE = `usage:
  admin account create --email <address> [--plan ${PLAN_NAMES.join('|')}] [--payment-method] [--tenants]
  admin account update --id <account_id> [--plan ${PLAN_NAMES.join('|')}] [--payment-method|--no-payment-method] [--tenants|--no-tenants]
options: --aws (target AWS: needs TABLE_NAME and AWS credentials), --data-dir <dir> (default $DATA_DIR or .data)`;

function targetEnvironment(aws: boolean, dataDir: string): NodeJS.ProcessEnv {
  if (!aws) {
    const stack = readStackFile(dataDir);
    // The SDK reads credentials and endpoints from process.env, so the stack's settings go there.
    if (stack) return Object.assign(process.env, stack.env);
    if (!process.env.TABLE_NAME) {
      throw new UsageError(`No running local stack found in ${dataDir} (start it with "npm start"), and TABLE_NAME is not set for AWS.`);
    }
  }
  if (!process.env.TABLE_NAME) throw new UsageError('--aws needs TABLE_NAME (the stack output TableName) in the environment.');
  return process.env;
}

function plan(value: string | undefined): PlanName | undefined {
  if (value === undefined) return undefined;
  if (!isPlanName(value)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  return value;
}

function flag(on: boolean | undefined, off: boolean | undefined, name: string): boolean | undefined {
  if (on && off) throw new UsageError(`--${name} and --no-${name} contradict each other`);
  return on ? true : off ? false : undefined;
}

async function main(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      id: { type: 'string' },
      plan: { type: 'string' },
      'payment-method': { type: 'boolean' },
      'no-payment-method': { type: 'boolean' },
      tenants: { type: 'boolean' },
      'no-tenants': { type: 'boolean' },
      aws: { type: 'boolean' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return undefined;
  }
  const [resource, action] = positionals;
  if (resource !== 'account' || (action !== 'create' && action !== 'update')) throw new UsageError(USAGE);

  const dataDir = resolve(values['data-dir'] ?? process.env.DATA_DIR ?? '.data');
  const services = buildServices(loadConfig(targetEnvironment(values.aws ?? false, dataDir)));

  if (action === 'create') {
    if (!values.email || !isEmailAddress(values.email)) throw new UsageError('account create needs --email <address>');
    if (values['no-payment-method'] || values['no-tenants']) throw new UsageError('--no-* options are for account update');
    const { account, secret } = await createAccount(services, {
      email: values.email,
      plan: plan(values.plan) ?? 'free',
      paymentMethod: values['payment-method'] ?? false,
      tenants: values.tenants ?? false,
    });
    return { account_id: account.id, api_key: secret };
  }
  if (!values.id) throw new UsageError('account update needs --id <account_id>');
  const account = await updateAccount(services, values.id, {
    plan: plan(values.plan),
    payment_method: flag(values['payment-method'], values['no-payment-method'], 'payment-method'),
    tenants_enabled: flag(values.tenants, values['no-tenants'], 'tenants'),
  });
  return { account_id: account.id, email: account.email, plan: account.plan, payment_method: account.payment_method, tenants_enabled: account.tenants_enabled };
}

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
main(process.argv.slice(2))
  .then((result) => {
    if (result !== undefined) console.log(JSON.stringify(result));
    process.exit(0);
  })
  .catch((error: unknown) => {
    if (error instanceof UsageError || error instanceof AppError) console.error(`error: ${error.message}`);
    else console.error(`error: ${(error as Error).stack ?? String(error)}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  });
