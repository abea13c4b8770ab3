/**
 * Two verifiers from outside the project, as receivers run them (docs/deliverability.md, "What every message
 * looks like"): Perl's Mail::DKIM (what SpamAssassin and Amavis use; independent of mailauth, which signs in
 * the local SES) and SpamAssassin's local rules (`spamassassin -L -t`: no network tests, no Bayes). Both are
 * Debian packages; a machine without them fails the test at once with the command that installs them,
 * never skips it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const VERIFIER_PACKAGES = 'spamassassin libmail-dkim-perl';
const INSTALL = `apt-get install -y ${VERIFIER_PACKAGES}`;

/** Throws, naming the Debian packages, unless spamassassin and Mail::DKIM (with Net::DNS) are installed. */
export function requireOutsideVerifiers(): void {
  const missing: string[] = [];
  try {
    execFileSync('spamassassin', ['-V'], { stdio: 'ignore' });
  } catch {
    missing.push('spamassassin (Debian package spamassassin)');
  }
  try {
    execFileSync('perl', ['-MMail::DKIM::Verifier', '-MNet::DNS::Resolver', '-e', '1'], { stdio: 'ignore' });
  } catch {
    missing.push("Perl's Mail::DKIM (Debian package libmail-dkim-perl)");
  }
  if (missing.length) throw new Error(`Missing: ${missing.join(', ')}. Install them with: ${INSTALL}`);
}

export interface MailDkimResult {
  /** Mail::DKIM's overall result: pass, fail, invalid, none, temperror... */
  result: string;
  detail: string;
  /** d= of the signature that decided the result. */
  domain: string;
}

/**
 * Mail::DKIM::Verifier over each message (raw bytes, as SES delivered them), one perl process for all.
 * Public keys come from the DNS server at `dns` (`host:port`, the local cloud's DNS emulator): Mail::DKIM's
 * own lookup through a Net::DNS resolver pointed there (Mail::DKIM::DNS::resolver), nothing supplied by hand.
 */
export function verifyWithMailDkim(messages: Buffer[], dns: string): MailDkimResult[] {
  const [host, port] = dns.split(':') as [string, string];
  const dir = mkdtempSync(join(tmpdir(), 'mail-dkim-'));
  try {
    const files = messages.map((message, i) => {
      const file = join(dir, `${i}.eml`);
      writeFileSync(file, message);
      return file;
    });
    const script = `
      use strict; use warnings;
      use Mail::DKIM::Verifier; use Mail::DKIM::DNS; use Net::DNS::Resolver;
      my ($host, $port, @files) = @ARGV;
      Mail::DKIM::DNS::resolver(Net::DNS::Resolver->new(nameservers => [$host], port => $port, recurse => 1, udp_timeout => 5, tcp_timeout => 5, retry => 2));
      for my $file (@files) {
        open(my $fh, '<:raw', $file) or die "$file: $!";
        my $data = do { local $/; <$fh> };
        my $verifier = Mail::DKIM::Verifier->new();
        $verifier->PRINT($data);
        $verifier->CLOSE();
        my $signature = $verifier->signature;
        print join("\\t", $verifier->result, $verifier->result_detail // '', $signature ? $signature->domain : ''), "\\n";
      }`;
    const output = execFileSync('perl', ['-e', script, host, port, ...files], { encoding: 'utf8', timeout: 60_000 });
    return output
      .trimEnd()
      .split('\n')
      .map((line) => {
        const [result = '', detail = '', domain = ''] = line.split('\t');
        return { result, detail, domain };
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SpamAssassinScore {
  score: number;
  /** The rules that hit, with their points: `HTML_IMAGE_ONLY_28=2.8`. */
  rules: string[];
}

const INDEX_FIELD = 'X-Verifier-Index';

/**
 * The messages as one mbox (mboxrd: a body line starting with `From ` or `>From ` gets one more `>`), each
 * with an X-Verifier-Index field first: spamassassin does not score an mbox in its order.
 */
function mbox(messages: Buffer[]): Buffer {
  return Buffer.concat(
    messages.map((message, i) => {
      const text = message.toString('latin1').replace(/^(>*From )/gm, '>$1');
      return Buffer.from(
        `From verifier@example.org Thu Jan  1 00:00:00 2026\n${INDEX_FIELD}: ${i}\r\n${text}${text.endsWith('\n') ? '' : '\n'}\n`,
        'latin1',
      );
    }),
  );
}

/**
 * SpamAssassin's local rules over the messages, in one `spamassassin -L -t --mbox` process (its start, the
 * rules' compilation, is most of the cost: about 1 s, against 2-3 s for eight messages at once).
 */
export function scoreWithSpamAssassin(messages: Buffer[]): Promise<SpamAssassinScore[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'spamassassin',
      ['-L', '-t', '--mbox'],
      { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 120_000 },
      (error, stdout) => {
        if (error) return reject(error);
        // Each output message (after its mbox From_ line): the message with its index, and its report.
        const scores: SpamAssassinScore[] = [];
        for (const output of stdout.split(/^From verifier@example\.org .*$/m).slice(1)) {
          const index = new RegExp(`^${INDEX_FIELD}: (\\d+)`, 'm').exec(output);
          const report = output.slice(output.lastIndexOf('Content analysis details:'));
          const score = /^Content analysis details:\s+\((-?[\d.]+) points/.exec(report);
          // The rules table: after its dashed line, up to the first blank line.
          const table = report.slice(report.indexOf('----'), report.indexOf('\n\n', report.indexOf('----')));
          const rules = [...table.matchAll(/^\s*(-?[\d.]+)\s+([A-Z0-9_]+)\s/gm)].map((m) => `${m[2]}=${m[1]}`);
          if (index && score) scores[Number(index[1])] = { score: Number(score[1]), rules };
        }
        const missing = messages.map((_, i) => i).filter((i) => scores[i] === undefined);
        if (missing.length)
          return reject(new Error(`spamassassin gave no score for messages ${missing.join(', ')}:\n${stdout.slice(0, 4000)}`));
        resolve(scores);
      },
    );
    child.stdin!.end(mbox(messages));
  });
}
