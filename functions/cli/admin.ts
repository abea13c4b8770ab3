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
import { PLAN_NAMES } from '#shared/domain/accounts/plans';
import { isEmailAddress } from '#shared/domain/mail/address';
import { AppError } from '#shared/domain/errors';
import { ENV, loadConfig } from '#shared/config/config';
import { buildPlatform } from '#shared/services/platform';
import { DEFAULT_HOSTING_QUOTAS } from '#shared/usecases/domains/mta-sts/quota-headroom';
import { newPasswordSchema } from '#shared/domain/dashboard/password-policy';
import { AuditLogRepository } from '#shared/adapters/store/audit-log';
import { recordAudit } from '#shared/usecases/audit/record';
import { oidcSettingsFromValues } from '#shared/domain/dashboard/oidc';
import { ADMIN_OPTIONS, UsageError, type Command, type CommandContext, type Inputs, type Values } from './admin-commands/context';

export { UsageError };

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

/** A raised quota given on the command line (a whole number), else AWS's default. */
function quotaOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const quota = Number(value);
  if (!Number.isInteger(quota) || quota < 1) throw new UsageError(`--${name} must be a whole number (the quota Service Quotas shows)`);
  return quota;
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: ADMIN_OPTIONS,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
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

/**
 * Every command, by `<resource> <action>` (`rotate-link-key` alone), loaded when it runs: each module
 * (./admin-commands/) builds only the capabilities it uses, so a command starts without the AWS clients of
 * the others.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  'account create': async () => (await import('./admin-commands/accounts')).createAccountCommand,
  'account update': async () => (await import('./admin-commands/accounts')).updateAccountCommand,
  'account pause': async () => (await import('./admin-commands/accounts')).pauseCommand('pause'),
  'account resume': async () => (await import('./admin-commands/accounts')).pauseCommand('resume'),
  'tenant resume': async () => (await import('./admin-commands/accounts')).resumeTenantCommand,
  'user create': async () => (await import('./admin-commands/users')).createUserCommand,
  'rotate-link-key': async () => (await import('./admin-commands/secrets')).rotateLinkKeyCommand,
  'ses quota': async () => (await import('./admin-commands/ses-quota')).sesQuotaCommand,
  'mta-sts quota': async () => (await import('./admin-commands/mta-sts-quota')).mtaStsQuotaCommand,
  'oidc seal-secret': async () => (await import('./admin-commands/secrets')).sealOidcSecretCommand,
  'data adopt-legacy': async () => (await import('./admin-commands/adopt-legacy')).adoptLegacyRecordsCommand,
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
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : null;
  if (!load) throw new UsageError(USAGE);
  const inputs = await inputsOf(resource, values);

  options.prepareEnvironment?.();
  if (!process.env[ENV.tableName])
    throw new UsageError(
      `Set ${ENV.tableName} (the stack output TableName) in the environment, with the AWS credentials and region of the stack.`,
    );
  const platform = buildPlatform(loadConfig(process.env));
  const auditLog = new AuditLogRepository(platform.table);
  const audited: CommandContext['audited'] = async (accountId, ids, result) => {
    await recordAudit(
      { auditLog, clock: platform.clock },
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
  const command = await load();
  return command({ ...inputs, platform, audited });
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
