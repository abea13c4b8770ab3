/**
 * `npm run test:deployed -- --url <api> --key <key> [...]`: the public API's smoke suite against any
 * deployment (the local cloud of `npm start`, or a stack on AWS), over HTTP with the key only: no stack
 * file, no emulator endpoint, no AWS SDK. Prints a line per step (or `--json`, one report) and exits 0
 * when no step failed, 1 when one did, 2 on a usage error. Ctrl-C stops after the running step and
 * still removes what the run created. See docs/deploy.md, "Proving a deployment". ./main.ts is the program
 * (run from a bundle by ./run.cjs).
 */
import { parseOptions, UsageError, USAGE, type DeployedOptions } from './options';
import { formatHeader, formatStep, formatSummary } from './report';
import { runSteps } from './runner';
import { STEPS } from './steps';

export async function main(argv: string[]): Promise<number> {
  let options: DeployedOptions | null;
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`error: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (!options) {
    console.log(USAGE);
    return 0;
  }
  const interrupted = { stop: false };
  const onSignal = () => {
    interrupted.stop = true;
    console.error('interrupted: stopping after this step, then removing what the run created');
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  if (!options.json) console.log(formatHeader(options.target, options.url));
  const report = await runSteps(
    options,
    [...STEPS],
    (result) => {
      if (!options.json) console.log(formatStep(result));
    },
    interrupted,
  );
  console.log(options.json ? JSON.stringify(report, null, 2) : formatSummary(report));
  return report.ok ? 0 : 1;
}
