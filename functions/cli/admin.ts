/**
 * Operator CLI (until the dashboard exists).
 *
 *   admin account create --email <address> [--plan free|pro|scale|dedicated] [--payment-method] [--tenants]
 *         (prints {"account_id", "api_key": {...}, "secret": "svc_..."}: a full-access key, as POST /api-keys
 *         answers one; the secret is shown once)
 *   admin account update --id <acc_...> [--plan ...] [--payment-method | --no-payment-method] [--tenants | --no-tenants]
 *   admin account pause --id <acc_...> [--reason <text>]   (every send refused: 403 account_paused)
 *   admin account resume --id <acc_...>   (also one the reputation brake paused: docs/deliverability.md)
 *   admin tenant resume --account <acc_...> --tenant <external_id or ten_...>   (also one the service paused)
 *   admin rotate-link-key   (a new key signs links from now on; links signed before keep working: docs/tracking.md)
 *   admin user create --account <acc_...> --email <address> [--password-stdin]
 *         (a dashboard user, role owner: docs/dashboard.md. With --password-stdin the password is read
 *         from standard input, else one is generated and printed once in the answer.)
 *   admin oidc seal-secret [--issuer <url>] [--client-id <id>]
 *         (the dashboard's OpenID Connect client secret, read from standard input, sealed with the secrets
 *         key for that issuer and client (default: OIDC_ISSUER, OIDC_CLIENT_ID); prints
 *         {"oidc_client_secret_sealed": "v1:..."} for the OIDC_CLIENT_SECRET_SEALED setting: docs/dashboard.md)
 *   admin mta-sts quota [--domain-name-quota N] [--certificate-quota N]
 *         (the deployment's headroom for hosted MTA-STS policies: the AWS account's regional custom domain names
 *         and ACM certificates used out of their quotas, AWS's defaults 120 and 2,500 unless given: docs/deploy.md)
 *   admin data adopt-legacy [--segments N]
 *         (records of a release before retention and address references get them: docs/privacy.md; prints
 *         the counts; idempotent)
 *
 * Every change (all but `ses quota`, `mta-sts quota` and `oidc seal-secret`, which change nothing) is recorded in the audit log of the account it changed, with actor
 * `{type: "operator"}` and action `cli:<command>` (docs/audit-log.md); `rotate-link-key` changes no
 * account: it is recorded under the pseudo-account `deployment`.
 *
 * Its target comes from the environment only, as a function's does: TABLE_NAME (the stack's TableName
 * output), the region (AWS_REGION), credentials and, off AWS, endpoint overrides
 * (AWS_ENDPOINT_URL_DYNAMODB, ...). `npm run admin` runs it through localstack/admin-local.ts (from a bundle: localstack/admin.cjs), which
 * sets that environment from a running local stack (DATA_DIR/stack.json) unless `--aws` is given.
 *
 *   TABLE_NAME=... AWS_REGION=... npx tsx functions/cli/admin.ts account create --email <address>
 */
import { parseArgs } from 'node:util';
import { isPlanName, PLAN_NAMES, type PlanName } from '#shared/domain/accounts/plans';
import { isEmailAddress } from '#shared/domain/mail/address';
import { AppError } from '#shared/domain/errors';
import { ENV, loadConfig } from '#shared/config/config';
import { buildServices } from '#shared/services';
import { createAccount, pauseAccountAsOperator, resumeAccountAsOperator, updateAccount } from '#shared/usecases/access/accounts';
import { accountPauseView } from '#shared/domain/accounts/account';
import { resumeTenantAsOperator } from '#shared/usecases/tenants/tenants';
import { createDashboardUser } from '#shared/usecases/dashboard/users';
import { buildSesPace } from '#shared/services/ses-pace';
import { sesQuotaReport } from '#shared/usecases/delivery/ses-quota-report';
import { buildHostingQuotaUsage } from '#shared/services/mta-sts-provisioning';
import { DEFAULT_HOSTING_QUOTAS, hostingHeadroom } from '#shared/usecases/domains/mta-sts/quota-headroom';
import { generatePassword, newPasswordSchema } from '#shared/domain/dashboard/password-policy';
import { toPublicApiKey } from '#shared/domain/api-keys/api-key';
import { AuditLogRepository } from '#shared/adapters/store/audit-log';
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { recordAudit } from '#shared/usecases/audit/record';
import { UNKNOWN_ACCOUNT_AUDIT } from '#shared/usecases/dashboard/sign-in';
import { oidcSecretContext, oidcSettingsFromValues } from '#shared/domain/dashboard/oidc';
import { adoptLegacyCommand } from './adopt-legacy-command';

/** Bad arguments or a missing target: exit code 2. */
export class UsageError extends Error {}

const USAGE = `usage:
  admin account create --email <address> [--plan ${PLAN_NAMES.join('|')}] [--payment-method] [--tenants]
  admin account update --id <account_id> [--plan ${PLAN_NAMES.join('|')}] [--payment-method|--no-payment-method] [--tenants|--no-tenants]
  admin account pause --id <account_id> [--reason <text>]   (every send is refused with 403 account_paused)
  admin account resume --id <account_id>   (also an account the reputation brake paused)
  admin tenant resume --account <account_id> --tenant <external_id or tenant id>
  admin rotate-link-key
  admin user create --account <account_id> --email <address> [--password-stdin]
  admin ses quota   (SES's send quota and account state, the rate sends are paced to, the backlog)
  admin mta-sts quota [--domain-name-quota N] [--certificate-quota N]   (custom domain names and certificates used out of the AWS account's quotas)
  admin oidc seal-secret [--issuer <url>] [--client-id <id>]   (the client secret from standard input; prints it sealed)
  admin data adopt-legacy [--segments N]   (records of an older release get retention and address references; idempotent)`;

const TARGET_USAGE = `target: the environment (${ENV.tableName}, AWS_REGION, AWS credentials, endpoint overrides such as AWS_ENDPOINT_URL_DYNAMODB)`;

export interface AdminOptions {
  /**
   * Called once the command is known, before anything is read or written: sets up process.env (the AWS
   * SDK reads credentials and endpoints from there). Throws UsageError when there is no target.
   */
  prepareEnvironment?: () => void;
  /** How the caller finds its target, printed with --help. */
  targetUsage?: string;
}

/** The password piped to --password-stdin: everything read, without the one trailing newline `echo` adds. */
async function passwordFromStdin(
  usage = '--password-stdin reads the password from a pipe: printf %s "$PASSWORD" | npm run admin -- user create ...',
): Promise<string> {
  const input = process.stdin;
  if (input.isTTY) throw new UsageError(usage);
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

function plan(value: string | undefined): PlanName | undefined {
  if (value === undefined) return undefined;
  if (!isPlanName(value)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  return value;
}

/** A raised quota given on the command line (a whole number), else AWS's default. */
function quotaOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const quota = Number(value);
  if (!Number.isInteger(quota) || quota < 1) throw new UsageError(`--${name} must be a whole number (the quota Service Quotas shows)`);
  return quota;
}

function flag(on: boolean | undefined, off: boolean | undefined, name: string): boolean | undefined {
  if (on && off) throw new UsageError(`--${name} and --no-${name} contradict each other`);
  return on ? true : off ? false : undefined;
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        id: { type: 'string' },
        account: { type: 'string' },
        tenant: { type: 'string' },
        plan: { type: 'string' },
        'payment-method': { type: 'boolean' },
        'no-payment-method': { type: 'boolean' },
        tenants: { type: 'boolean' },
        'password-stdin': { type: 'boolean' },
        'no-tenants': { type: 'boolean' },
        issuer: { type: 'string' },
        'client-id': { type: 'string' },
        segments: { type: 'string' },
        'domain-name-quota': { type: 'string' },
        'certificate-quota': { type: 'string' },
        reason: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
}

type Values = ReturnType<typeof parse>['values'];

/** What a command was given, checked before anything is read or written (stdin included, in this order). */
interface Inputs {
  values: Values;
  oidc: ReturnType<typeof oidcSettingsFromValues> | null;
  clientSecret: string | undefined;
  password: string | undefined;
  segments: number;
  hostingQuotas: typeof DEFAULT_HOSTING_QUOTAS;
}

/** What a command runs with once its target is set: the services, its inputs, and its audit record. */
interface CommandContext extends Inputs {
  services: ReturnType<typeof buildServices>;
  /** The operator's change in the audit log (a failed write is logged, never the command's failure). */
  audited: <T>(accountId: string, ids: Record<string, string>, result: T) => Promise<T>;
}

/** The OpenID Connect settings the secret is bound to, checked before the secret is read; then the secret. */
async function oidcInputs(values: Values): Promise<Pick<Inputs, 'oidc' | 'clientSecret'>> {
  const oidc = oidcSettingsFromValues({
    issuer: values.issuer ?? process.env.OIDC_ISSUER ?? '',
    clientId: values['client-id'] ?? process.env.OIDC_CLIENT_ID ?? '',
    label: '',
    allowedDomains: '',
    sealedClientSecret: '',
  });
  if (!oidc)
    throw new UsageError(
      'oidc seal-secret needs --issuer <url> --client-id <id> (or OIDC_ISSUER and OIDC_CLIENT_ID): the secret is sealed for them',
    );
  if (oidc.problem) throw new UsageError(oidc.problem);
  const clientSecret = await passwordFromStdin(
    'oidc seal-secret reads the client secret from a pipe: printf %s "$SECRET" | npm run admin -- oidc seal-secret ...',
  );
  if (clientSecret.trim() === '') throw new UsageError('the client secret read from standard input is empty');
  return { oidc, clientSecret };
}

/** user create's account and email, checked before a password is read from stdin; then the password (if piped). */
async function userPassword(values: Values): Promise<string | undefined> {
  if (!values.account || !values.email) throw new UsageError('user create needs --account <account_id> --email <address>');
  if (!isEmailAddress(values.email.trim())) throw new UsageError('--email must be an email address');
  if (!values['password-stdin']) return undefined;
  const password = await passwordFromStdin();
  const checked = newPasswordSchema.safeParse(password);
  if (!checked.success) throw new UsageError(checked.error.issues[0]!.message);
  return password;
}

async function inputsOf(resource: string, values: Values): Promise<Inputs> {
  const { oidc, clientSecret } = resource === 'oidc' ? await oidcInputs(values) : { oidc: null, clientSecret: undefined };
  const password = resource === 'user' ? await userPassword(values) : undefined;
  const segments = values.segments === undefined ? 4 : Number(values.segments);
  if (!Number.isInteger(segments) || segments < 1 || segments > 16) throw new UsageError('--segments must be a whole number from 1 to 16');
  const hostingQuotas = {
    domainNames: quotaOption(values['domain-name-quota'], 'domain-name-quota', DEFAULT_HOSTING_QUOTAS.domainNames),
    certificates: quotaOption(values['certificate-quota'], 'certificate-quota', DEFAULT_HOSTING_QUOTAS.certificates),
  };
  return { values, oidc, clientSecret, password, segments, hostingQuotas };
}

async function createAccountCommand({ services, values, audited }: CommandContext): Promise<unknown> {
  if (!values.email || !isEmailAddress(values.email)) throw new UsageError('account create needs --email <address>');
  if (values['no-payment-method'] || values['no-tenants']) throw new UsageError('--no-* options are for account update');
  const { account, apiKey, secret } = await createAccount(services, {
    email: values.email,
    plan: plan(values.plan) ?? 'free',
    paymentMethod: values['payment-method'] ?? false,
    tenants: values.tenants ?? false,
  });
  // The account's first key, named as POST /api-keys answers a new key: the key, and its secret (shown once).
  return audited(
    account.id,
    { account: account.id, api_key: apiKey.id },
    { account_id: account.id, api_key: toPublicApiKey(apiKey), secret },
  );
}

async function updateAccountCommand({ services, values, audited }: CommandContext): Promise<unknown> {
  if (!values.id) throw new UsageError('account update needs --id <account_id>');
  const account = await updateAccount(services, values.id, {
    plan: plan(values.plan),
    payment_method: flag(values['payment-method'], values['no-payment-method'], 'payment-method'),
    tenants_enabled: flag(values.tenants, values['no-tenants'], 'tenants'),
  });
  return audited(
    account.id,
    { account: account.id },
    {
      account_id: account.id,
      email: account.email,
      plan: account.plan,
      payment_method: account.payment_method,
      tenants_enabled: account.tenants_enabled,
    },
  );
}

function pauseCommand(action: 'pause' | 'resume') {
  return async ({ services, values, audited }: CommandContext): Promise<unknown> => {
    if (!values.id) throw new UsageError(`account ${action} needs --id <account_id>`);
    const reason = values.reason?.trim() || 'Paused by the operator.';
    const changed =
      action === 'pause' ? await pauseAccountAsOperator(services, values.id, reason) : await resumeAccountAsOperator(services, values.id);
    return audited(changed.id, { account: changed.id }, { account_id: changed.id, ...accountPauseView(changed) });
  };
}

async function resumeTenantCommand({ services, values, audited }: CommandContext): Promise<unknown> {
  if (!values.account || !values.tenant) throw new UsageError('tenant resume needs --account <account_id> --tenant <external_id or id>');
  const tenant = await resumeTenantAsOperator(services, values.account, values.tenant);
  return audited(values.account, { tenant: tenant.id }, { tenant_id: tenant.id, external_id: tenant.external_id, status: tenant.status });
}

async function createUserCommand({ services, values, password, audited }: CommandContext): Promise<unknown> {
  const chosen = password ?? generatePassword();
  const user = await createDashboardUser(services, { accountId: values.account!, email: values.email!, password: chosen });
  // A generated password is printed once, here; it is stored only as its scrypt hash.
  return audited(
    user.account_id,
    { user: user.id },
    {
      user_id: user.id,
      account_id: user.account_id,
      email: user.email,
      role: user.role,
      ...(password === undefined ? { password: chosen } : {}),
    },
  );
}

/** Every command, by `<resource> <action>` (`rotate-link-key` alone). */
const COMMANDS: Record<string, (context: CommandContext) => Promise<unknown>> = {
  'account create': createAccountCommand,
  'account update': updateAccountCommand,
  'account pause': pauseCommand('pause'),
  'account resume': pauseCommand('resume'),
  'tenant resume': resumeTenantCommand,
  'user create': createUserCommand,
  'rotate-link-key': async ({ services, audited }) => {
    // Send workers pick the new key up within CURRENT_KEY_TTL_MS; every older key keeps verifying.
    const key = await services.linkSigning.rotateLinkKey();
    return audited(UNKNOWN_ACCOUNT_AUDIT, { link_key: key.kid }, { link_key: key.kid, created_at: key.created_at });
  },
  'ses quota': async ({ services }) => {
    const { sesAccount } = buildSesPace(services.config, services);
    return sesQuotaReport({
      sesAccount,
      sesSendBudget: services.sesSendBudget,
      configuredRate: services.config.sesMaxSendRate,
      now: Date.now(),
    });
  },
  'mta-sts quota': async ({ services, hostingQuotas }) => hostingHeadroom(buildHostingQuotaUsage(services), hostingQuotas),
  'oidc seal-secret': async ({ services, oidc, clientSecret }) => {
    // Sealed for this issuer and client only; never stored or printed in plain text.
    const sealed = await services.secretBox.seal(clientSecret!, oidcSecretContext(oidc!));
    return { oidc_client_secret_sealed: sealed, issuer: oidc!.issuer, client_id: oidc!.clientId };
  },
  'data adopt-legacy': async ({ services, segments, audited }) =>
    audited(UNKNOWN_ACCOUNT_AUDIT, {}, await adoptLegacyCommand(services, segments)),
};

/** Runs one command; answers what to print (undefined: nothing). */
async function run(argv: string[], options: AdminOptions): Promise<unknown> {
  const { values, positionals } = parse(argv);
  if (values.help) {
    console.log(`${USAGE}\n${options.targetUsage ?? TARGET_USAGE}`);
    return undefined;
  }
  const [resource = '', action] = positionals;
  const name = [resource, action].filter(Boolean).join(' ');
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : null;
  if (!command) throw new UsageError(USAGE);
  const inputs = await inputsOf(resource, values);

  options.prepareEnvironment?.();
  if (!process.env[ENV.tableName])
    throw new UsageError(
      `Set ${ENV.tableName} (the stack output TableName) in the environment, with the AWS credentials and region of the stack.`,
    );
  const services = buildServices(loadConfig(process.env));
  const auditLog = new AuditLogRepository({ client: createDynamoClient(services.config), name: services.config.tableName });
  const audited = async <T>(accountId: string, ids: Record<string, string>, result: T): Promise<T> => {
    await recordAudit(
      { auditLog, clock: services.clock },
      {
        account_id: accountId,
        tenant_id: null,
        action: `cli:${name}`,
        resource_ids: ids,
        actor: { type: 'operator' },
        status: null,
        source_ip: null,
        user_agent: null,
        request_id: null,
      },
    );
    return result;
  };
  return command({ ...inputs, services, audited });
}

/**
 * Runs the CLI and answers its exit code: 0 ok (one JSON line on stdout), 1 failed (e.g. a duplicate
 * email), 2 usage error. Errors go to stderr.
 */
export async function runAdmin(argv: string[], options: AdminOptions = {}): Promise<number> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  try {
    const result = await run(argv, options);
    if (result !== undefined) console.log(JSON.stringify(result));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof AppError) console.error(`error: ${error.message}`);
    else console.error(`error: ${(error as Error).stack ?? String(error)}`);
    return error instanceof UsageError ? 2 : 1;
  }
}

if (require.main === module) {
  void runAdmin(process.argv.slice(2)).then((code) => process.exit(code));
}
