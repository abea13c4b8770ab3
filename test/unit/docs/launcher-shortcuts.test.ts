/**
 * The docs test's page shells run `npx <program>` and `npm run --silent <script>` without npm's start-up
 * (test/support/docs/page-shell.ts, LAUNCHER_SHORTCUTS). The same commands, through npm itself and through
 * the shortcuts, print the same and end with the same status: what the pages show holds with the real
 * launchers. Anything the shortcuts do not cover still reaches npm.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { LAUNCHER_SHORTCUTS } from '../../support/docs/page-shell';

const ROOT = join(__dirname, '..', '..', '..');

function bash(command: string, shortcuts: boolean) {
  const script = [...(shortcuts ? LAUNCHER_SHORTCUTS : []), 'set -u -o pipefail', command].join('\n');
  const run = spawnSync('bash', ['--noprofile', '--norc', '-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("the docs test's npx and npm run shortcuts", () => {
  it.each([
    ['npx mailservice --version'],
    ['npx mailservice --help'],
    // An argument with a space and a quote reaches the program as one argument (the error names it whole).
    ['npx mailservice "no such command\'s" --json'],
    ['npm run --silent admin -- "no such command\'s"'],
    ['npm run --silent admin -- --help'],
  ])(
    '%s: the same output and exit status as through npm itself',
    (command) => {
      const real = bash(command, false);
      const shortcut = bash(command, true);
      expect(real.stdout.length + real.stderr.length).toBeGreaterThan(0);
      if (command.includes("no such command's")) expect(real.status).toBe(2);
      expect(shortcut).toEqual(real);
    },
    60_000,
  );

  it('a command the shortcuts do not cover goes to npm itself', () => {
    const version = bash('npm --version', true);
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    // `npm run` without --silent prints npm's own banner ("> mailservice@... admin"): npm ran it.
    expect(bash('npm run admin -- --help', true).stdout).toMatch(/^> \S+ admin\n> node localstack\/admin\.cjs --help/m);
  }, 60_000);

  it('the shortcuts never run something npm would not: npx of a program that is not installed goes to npm', () => {
    const script = [...LAUNCHER_SHORTCUTS, 'type -t npx; npx --no-install no-such-program-zz 2>&1; echo "status $?"'].join('\n');
    const run = spawnSync('bash', ['--noprofile', '--norc', '-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(run.stdout).toMatch(/^function\n/);
    expect(run.stdout).toMatch(/npm error/);
    expect(run.stdout).toMatch(/status [1-9]/);
  }, 60_000);
});
