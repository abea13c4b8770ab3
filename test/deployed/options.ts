/**
 * The command line of `npm run test:deployed` (node's util.parseArgs, strict: an unknown flag is a usage
 * error, never ignored). Everything the suite knows about its target comes from here: the API's URL and
 * a key, never a stack file, an emulator port or the AWS SDK.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SETTINGS } from '#shared/config/settings';

/** Where the API runs: decides whether a check only a real SES can settle is reported as settled. */
export type Target = 'local' | 'aws';

export interface DeployedOptions {
  /** The API's base URL, without a trailing slash. */
  url: string;
  key: string;
  /** The sender: an address on a verified domain of the account, or the sandbox sender. */
  from: string;
  /** The recipient of every send. */
  to: string;
  /** A public HTTPS receiver the user names; without it the webhook steps check the endpoint only. */
  webhookUrl: string | undefined;
  /** How long a wait (an email's final status, a webhook delivery, an index) may take. */
  timeoutMs: number;
  target: Target;
  /** Emails sent at once by the burst check (0 leaves it out). */
  burst: number;
  /** Print one JSON report instead of the text lines. */
  json: boolean;
}

export class UsageError extends Error {}

/** SES's mailbox simulator: accepted and reported delivered, without reaching anyone or counting as a bounce (https://docs.aws.amazon.com/ses/latest/dg/send-an-email-from-console.html). */
export const SIMULATOR_SUCCESS = 'success@simulator.amazonses.com';

export const USAGE = `usage: npm run test:deployed -- --url <api url> --key <svc_ key> [options]

  --url <url>           the API's base URL (the stack output ApiUrl, or http://127.0.0.1:3000 for npm start)
  --key <key>           an API key of the account to test with (full access: every step uses its scope)
  --from <address>      the sender; default smoke@${DEFAULT_SETTINGS.SANDBOX_DOMAIN} (the sandbox sender of a stack
                        deployed with the default sandboxDomain). The sandbox sender reaches the account email only:
                        pass --to <account email>, or an address on a verified domain of the account.
  --to <address>        the recipient; default ${SIMULATOR_SUCCESS} (SES's mailbox simulator)
  --webhook-url <url>   a public HTTPS receiver of yours; without it the webhook steps create, read and delete
                        an endpoint and report delivery as SKIP
  --timeout <seconds>   how long each wait may take (default 120)
  --target local|aws    default: local when --url is a loopback address, aws otherwise
  --burst <n>           emails sent at once by the burst check (default 10, 0 leaves it out)
  --json                print one JSON report instead of the text lines
  --help`;

/** Loopback hosts: the local cloud (`npm start`). Anything else is taken for a deployment on AWS. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function positiveNumber(flag: string, value: string, allowZero = false): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || (!allowZero && number === 0))
    throw new UsageError(`${flag} must be a ${allowZero ? 'non-negative' : 'positive'} number, not "${value}"`);
  return number;
}

function requiredString(flag: string, value: string | undefined): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

/** The flags as node:util's parseArgs reads them; its refusals as UsageError. */
function parseFlags(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: 'string' },
        key: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        'webhook-url': { type: 'string' },
        timeout: { type: 'string' },
        target: { type: 'string' },
        burst: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Parses argv (without node and the script); throws UsageError on anything it cannot use. `null` means --help. */
export function parseOptions(argv: string[]): DeployedOptions | null {
  const values = parseFlags(argv);
  if (values.help) return null;
  const rawUrl = requiredString('--url', values.url);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new UsageError(`--url is not a URL: "${rawUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must be http(s), not ${url.protocol}`);
  if (values.target !== undefined && values.target !== 'local' && values.target !== 'aws')
    throw new UsageError(`--target is local or aws, not "${values.target}"`);
  if (values['webhook-url'] !== undefined && !values['webhook-url'].startsWith('https://'))
    throw new UsageError('--webhook-url must be an https:// URL (webhook endpoints are HTTPS only)');
  const from = values.from ?? `smoke@${DEFAULT_SETTINGS.SANDBOX_DOMAIN}`;
  if (!/^[^@\s]+@[^@\s]+$/.test(from))
    throw new UsageError(`--from must be a bare address (name@domain), not "${from}": the display-name check adds a name itself`);
  return {
    url: url.href.replace(/\/+$/, ''),
    key: requiredString('--key', values.key),
    from,
    to: values.to ?? SIMULATOR_SUCCESS,
    webhookUrl: values['webhook-url'],
    timeoutMs: positiveNumber('--timeout', values.timeout ?? '120') * 1000,
    target: (values.target as Target | undefined) ?? (isLoopback(url.hostname) ? 'local' : 'aws'),
    burst: Math.floor(positiveNumber('--burst', values.burst ?? '10', true)),
    json: values.json ?? false,
  };
}
