/**
 * The `mailservice` program: global options, every command group, and how it ends. `runCli` answers the
 * exit status instead of exiting, so main.ts stays one line and the unit tests run commands in-process.
 * Exit status: 0 done, 1 a failure (the API's message, code and hint on stderr), 2 a usage error (an
 * unknown command or option, a missing or bad argument: commander's, or ours).
 */
import { Command, CommanderError } from 'commander';
import { registerDomainHealth } from './commands/domain-health';
import { registerDomains } from './commands/domains';
import { registerEmails } from './commands/emails';
import { registerImports } from './commands/imports';
import { registerInboundRoutes } from './commands/inbound-routes';
import { registerKeys } from './commands/keys';
import { registerLinkDomain } from './commands/link-domain';
import { registerListen } from './commands/listen';
import { registerMtaSts } from './commands/mta-sts';
import { registerProfile } from './commands/profile';
import { registerSend } from './commands/send';
import { registerSuppressions } from './commands/suppressions';
import { registerValidate } from './commands/validate';
import { registerWebhooks } from './commands/webhooks';
import { reportError, UsageError } from './errors';
import type { CliIo } from './io';

export function buildProgram(io: CliIo): Command {
  const program = new Command('mailservice')
    .description(
      'The mailservice CLI: send email, validate addresses and manage domains, keys, webhooks, suppressions and imports through the HTTP API (docs/cli.md).',
    )
    .version('0.1.0')
    .option('--json', 'print the API answers as JSON (for scripts)')
    .option('--profile <name>', 'use a saved profile (mailservice profile list)')
    .option('--base-url <url>', 'the API (default: MAILSERVICE_BASE_URL, the profile, or http://127.0.0.1:3000)')
    .option('--api-key <key>', 'the API key (default: MAILSERVICE_API_KEY or the profile)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: (text) => io.err(text) });
  registerSend(program, io);
  const events = registerEmails(program, io);
  registerListen(program, events, io);
  const domains = registerDomains(program, io);
  registerDomainHealth(domains, io);
  registerMtaSts(domains, io);
  registerLinkDomain(domains, io);
  registerInboundRoutes(domains, io);
  registerKeys(program, io);
  registerWebhooks(program, io);
  registerSuppressions(program, io);
  registerValidate(program, io);
  registerImports(program, io);
  registerProfile(program, io);
  return program;
}

/** Runs `mailservice <args>` (args without node and the script) and answers the exit status. */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with status 0; every other commander error (a missing subcommand included) is a usage error.
      return error.exitCode === 0 ? 0 : 2;
    }
    const json = args.includes('--json');
    return reportError(io, error, json && !(error instanceof UsageError));
  }
}
