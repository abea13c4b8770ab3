/**
 * The docs test's page shells run `npx <program>` and `npm run --silent <script>` without npm's start-up
 * (test/support/docs/page-shell.ts, LAUNCHER_SHORTCUTS). The same commands, through npm itself and through
 * the shortcuts, print the same and end with the same status: what the pages show holds with the real
 * launchers. Through the shortcuts they run with an `npm` and an `npx` first on PATH that only fail, so npm
 * is never what ran them. Anything the shortcuts do not cover still reaches npm.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAUNCHER_SHORTCUTS } from '../../support/docs/page-shell';
import { temporaryDir } from '../../support/temporary-dirs';

const ROOT = join(__dirname, '..', '..', '..');

/** A folder with an `npm` and an `npx` that print that they ran and fail. */
function failingLaunchers(): string {
  const dir = temporaryDir('mailservice-no-npm-');
  for (const name of ['npm', 'npx']) {
    writeFileSync(join(dir, name), `#!/bin/sh\necho "the real ${name} ran" >&2\nexit 97\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

function bash(command: string, options: { shortcuts: boolean; path?: string }) {
  const script = [...(options.shortcuts ? LAUNCHER_SHORTCUTS : []), 'set -u -o pipefail', command].join('\n');
  // As from a user's shell: not the log level of an `npm run --silent` this test may run under (npm passes it
  // on as npm_config_loglevel, which silenced the real npm's banner: `npm run --silent test:fast` failed).
  const { npm_config_loglevel: _silent, ...shell } = process.env;
  const env = options.path ? { ...shell, PATH: `${options.path}:${shell.PATH}` } : shell;
  const run = spawnSync('bash', ['--noprofile', '--norc', '-c', script], { cwd: ROOT, encoding: 'utf8', env, timeout: 60_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("the docs test's npx and npm run shortcuts", () => {
  const noNpm = failingLaunchers();

  it.each([
    ['npx mailservice --version', 0],
    ['npx mailservice --help', 0],
    // An argument with a space and a quote reaches the program as one argument (the error names it whole).
    ['npx mailservice "no such command\'s" --json', 2],
    ['npm run --silent admin -- "no such command\'s"', 2],
    ['npm run --silent admin -- --help', 0],
  ])(
    '%s: the same output and exit status as through npm itself, and npm never runs',
    (command, status) => {
      const real = bash(command, { shortcuts: false });
      expect(real.status).toBe(status);
      expect(real.stdout.length + real.stderr.length).toBeGreaterThan(0);
      expect(bash(command, { shortcuts: true, path: noNpm })).toEqual(real);
    },
    60_000,
  );

  it('a command the shortcuts do not cover goes to npm itself', () => {
    expect(bash('npm --version', { shortcuts: true, path: noNpm })).toMatchObject({ status: 97, stderr: 'the real npm ran\n' });
    expect(bash('npm run admin -- --help', { shortcuts: true, path: noNpm })).toMatchObject({ status: 97 });
    expect(bash('npx --no-install no-such-program-zz', { shortcuts: true, path: noNpm })).toMatchObject({
      status: 97,
      stderr: 'the real npx ran\n',
    });
    // And through the real npm: `npm run` without --silent prints npm's own banner ("> mailservice@... admin").
    expect(bash('npm run admin -- --help', { shortcuts: true }).stdout).toMatch(/^> \S+ admin\n> node localstack\/admin\.cjs --help/m);
  }, 60_000);
});
