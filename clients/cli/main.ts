/**
 * The `mailservice` command (bin/mailservice.js runs this through tsx): runs the program on the process's
 * arguments and exits with its status. Everything else is in program.ts and the command modules.
 */
import { processIo } from './io';
import { runCli } from './program';

void runCli(process.argv.slice(2), processIo()).then((status) => {
  process.exitCode = status;
});
