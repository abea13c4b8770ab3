/**
 * bin/install-test-tools: `npm test`'s first step (its pretest script) and `.ci/run`'s install step, one list of
 * what the suite needs beyond Node. Run here with a PATH holding only stubs of those tools (the script uses bash
 * builtins otherwise), so no test ever runs apt-get: a stub apt-get records what it was asked to install.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const SCRIPT = join(ROOT, 'bin', 'install-test-tools');
const COMMAND = 'bash bin/install-test-tools';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'install-test-tools-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function stub(name: string, body = 'exit 0'): void {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/bash\n${body}\n`);
  chmodSync(file, 0o755);
}

/** Every tool present (Java 17, perl answering every module check, a Chromium at CHROMIUM_PATH), minus `except`. */
function stubTools(except: string[] = []): void {
  const tools: Record<string, string> = {
    java: `echo 'openjdk version "17.0.15" 2025-04-15' >&2`,
    curl: 'exit 0',
    jq: 'exit 0',
    swaks: 'exit 0',
    perl: 'exit 0',
    chromium: 'exit 0',
    spamassassin: 'exit 0',
  };
  for (const [name, body] of Object.entries(tools)) if (!except.includes(name)) stub(name, body);
}

function run(mode?: string): { status: number | null; lines: string[] } {
  const result = spawnSync('/bin/bash', [SCRIPT, ...(mode ? [mode] : [])], {
    cwd: ROOT,
    env: { PATH: dir, CHROMIUM_PATH: join(dir, 'chromium') },
    encoding: 'utf8',
  });
  return { status: result.status, lines: `${result.stdout}${result.stderr}`.split('\n').filter((line) => line !== '') };
}

test('everything present: silent, exit 0 (npm test starts at once; .ci/run installs nothing)', () => {
  stubTools();
  for (const mode of ['--pretest', '--check', undefined]) expect(run(mode)).toEqual({ status: 0, lines: [] });
});

test('jq missing and nothing to install it with: npm test stops, its first line naming jq and the command', () => {
  stubTools(['jq']);
  const { status, lines } = run('--pretest');
  expect(status).not.toBe(0);
  expect(lines[0]).toContain('jq');
  expect(lines[0]).toContain(COMMAND);
  expect(lines[0]).not.toContain('swaks'); // only what is missing
  expect(lines).toHaveLength(1);
});

test('a Java older than 17, a missing Chromium and Perl module: named, in --check mode too', () => {
  stubTools(['chromium', 'perl']);
  stub('java', `echo 'openjdk version "11.0.2" 2019-01-15' >&2`);
  stub('perl', 'case "$1" in -MMail::DKIM) exit 2;; esac; exit 0');
  const { status, lines } = run('--check');
  expect(status).toBe(1);
  expect(lines[0]).toContain('java 17+');
  expect(lines[0]).toContain('chromium');
  expect(lines[0]).toContain('Mail::DKIM');
  expect(lines[0]).not.toContain('Net::SSLeay');
  expect(lines[0]).toContain(COMMAND);
});

test('when it can install (apt-get, root or passwordless sudo): apt-get installs exactly the missing packages, then the run goes on', () => {
  stubTools(['jq', 'spamassassin']);
  const log = join(dir, 'apt-get.log');
  // sudo -n runs the command as is (whether or not the test runs as root); apt-get records its arguments and
  // "installs" by making the stubs.
  stub('sudo', '[ "$1" = -n ] && shift; exec "$@"');
  stub('apt-cache', 'exit 0');
  stub(
    'apt-get',
    `echo "$*" >> ${log}
if [ "$1" = install ]; then for t in jq spamassassin; do printf '#!/bin/bash\\nexit 0\\n' > ${dir}/$t; /bin/chmod +x ${dir}/$t; done; fi`,
  );
  const { status, lines } = run('--pretest');
  expect(status).toBe(0);
  expect(lines[0]).toContain('jq, spamassassin');
  expect(lines[0]).toContain('installing');
  expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['update -y', 'install -y --no-install-recommends jq spamassassin']);
});

test('apt-get ran but the tool is still missing: exit 1 saying so', () => {
  stubTools(['swaks']);
  stub('sudo', '[ "$1" = -n ] && shift; exec "$@"');
  stub('apt-get', 'exit 0');
  const { status, lines } = run();
  expect(status).toBe(1);
  expect(lines[lines.length - 1]).toContain('still missing after apt-get: swaks');
});

test('npm test runs it first (pretest, after the lint), test:fast does not (the lint only); .ci/run installs through it with no list of its own', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(scripts.pretest).toBe(`npm run --silent lint && ${COMMAND} --pretest`);
  expect(scripts['test:fast']).toBe('npm run --silent lint && jest --selectProjects unit infra');
  expect(scripts.lint).toBe('biome ci . --error-on-warnings');
  expect(scripts['pretest:fast']).toBeUndefined();
  const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
  expect(ci).toMatch(/^bash bin\/install-test-tools$/m);
  expect(ci).not.toContain('apt-get');
  expect(existsSync(SCRIPT)).toBe(true);
});

test('the README and CONTRIBUTING.md name the same command', () => {
  for (const page of ['README.md', 'CONTRIBUTING.md']) expect(readFileSync(join(ROOT, page), 'utf8')).toContain(COMMAND);
});
