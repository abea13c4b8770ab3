/**
 * SPF, DKIM and DMARC of a received message, with mailauth, run by the MX listener at the end of DATA
 * (shared/doors/mx/mx-server.ts), looking records up through the service's resolvers (DNS_RESOLVERS: the
 * DNS emulator on the local cloud). SPF checks the connecting address against the envelope sender's
 * domain (the EHLO name for a bounce); DKIM every signature (the first MAX_DKIM_RESULTS reported); DMARC
 * the From domain with their alignment. It never throws and never takes longer than `timeoutMs`: checks
 * that could not run, or not in time, are `temperror`.
 *
 * Only the MX listener (a container) imports this: mailauth is ~1.2 MB of bundle, too much for a Lambda.
 */
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { MAX_DKIM_RESULTS, toAuthResult, uncheckedAuthentication, type AuthenticationChecks } from '../../domain/inbound/authentication';
import { withTimeout } from '../../lib/concurrency';
import { logWarn } from '../../lib/log';

interface Mailauth {
  dkimVerify: typeof import('mailauth/lib/dkim/verify').dkimVerify;
  verifyDmarc: typeof import('mailauth/lib/dmarc').dmarc;
  verifySpf: typeof import('mailauth/lib/spf').spf;
  /** The DMARC record lookup verifyDmarc makes (the From domain's, then its organizational domain's). */
  getDmarcRecord: (domain: string, resolver: RawResolve) => Promise<unknown>;
}

let mailauth: Mailauth | undefined;

/**
 * mailauth on the first message, not when the listener starts: with joi, which it loads, it was 230 ms of a relay
 * task's start of about 1 s of CPU (profiled), paid by every local cloud and every container start. `require`, as
 * the package has no exports map for an `import()` of its files.
 */
function loadMailauth(): Mailauth {
  mailauth ??= {
    dkimVerify: (require('mailauth/lib/dkim/verify') as typeof import('mailauth/lib/dkim/verify')).dkimVerify,
    verifyDmarc: (require('mailauth/lib/dmarc') as typeof import('mailauth/lib/dmarc')).dmarc,
    verifySpf: (require('mailauth/lib/spf') as typeof import('mailauth/lib/spf')).spf,
    getDmarcRecord: require('mailauth/lib/dmarc/get-dmarc-record') as Mailauth['getDmarcRecord'],
  };
  return mailauth;
}

/** node:dns `resolve(name, rrtype)`'s shape. */
export type RawResolve = (name: string, rrtype: string) => Promise<unknown>;

/** The checks' time limit: the SMTP client waits for them before its 250 (RFC 5321 gives it 10 minutes). */
export const AUTHENTICATION_TIMEOUT_MS = 10_000;

/** Longest domain or selector reported (a DNS name is at most 253 characters; a header may say anything). */
const MAX_NAME_CHARS = 255;

export interface AuthenticationInput {
  raw: Buffer;
  /** The connecting client's address. */
  ip: string;
  helo: string;
  mailFrom: string;
  /** Our host name (the MX), as named in the results. */
  mta: string;
}

export async function checkAuthentication(
  input: AuthenticationInput,
  resolve: RawResolve,
  options: { timeoutMs?: number } = {},
): Promise<AuthenticationChecks> {
  const timeoutMs = options.timeoutMs ?? AUTHENTICATION_TIMEOUT_MS;
  try {
    const result = await withTimeout(authenticate(input, resolve), timeoutMs);
    if (result === 'timeout') {
      logWarn('inbound: authentication checks timed out', { timeout_ms: timeoutMs, ip: input.ip, mail_from: input.mailFrom });
      return uncheckedAuthentication();
    }
    return summarize(result);
  } catch (error) {
    logWarn('inbound: authentication checks failed', { error: (error as Error)?.message });
    return uncheckedAuthentication();
  }
}

/** mailauth's answers as recorded: known verdict words only, bounded names, at most MAX_DKIM_RESULTS signatures. */
function summarize(result: Awaited<ReturnType<typeof authenticate>>): AuthenticationChecks {
  const spf = result.spf
    ? { result: toAuthResult(result.spf.status?.result), domain: name(result.spf.domain) }
    : { result: 'none' as const, domain: null };
  const dkim = (result.dkim?.results ?? [])
    .filter((signature) => signature.signingDomain || signature.status?.result !== 'none')
    .slice(0, MAX_DKIM_RESULTS)
    .map((signature) => ({
      result: toAuthResult(signature.status?.result),
      domain: name(signature.signingDomain),
      selector: name(signature.selector),
      aligned: Boolean(signature.status?.aligned),
    }));
  const dmarcResult = result.dmarc || null;
  const policy = dmarcResult?.policy;
  const knownPolicy: AuthenticationChecks['dmarc']['policy'] =
    policy === 'reject' || policy === 'quarantine' || policy === 'none' ? policy : null;
  const dmarc = dmarcResult
    ? {
        result: toAuthResult(dmarcResult.status?.result),
        // The From domain the policy applies to (mailauth names the organizational domain).
        domain: name(fromDomain(result.dkim?.headerFrom) ?? dmarcResult.domain),
        policy: knownPolicy,
      }
    : { result: 'none' as const, domain: null, policy: null };
  return { spf, dkim, dmarc };
}

const name = (value: string | null | undefined): string | null => (typeof value === 'string' ? value.slice(0, MAX_NAME_CHARS) : null);

/**
 * mailauth's SPF, DKIM and DMARC, as its `authenticate` gives them, with their DNS lookups at once instead of
 * one check after the other: SPF's lookups while DKIM reads the message, and the DMARC record's while SPF's
 * run (looked up through a resolver that answers each question once per message, so DMARC's own check finds
 * them answered). The results are mailauth's own (test/unit/mx/check-authentication.test.ts compares them).
 */
export async function authenticate(input: AuthenticationInput, resolve: RawResolve) {
  const once = answeringOnce(resolve);
  const resolver = once as never;
  const { dkimVerify, verifyDmarc, verifySpf, getDmarcRecord } = loadMailauth();
  // As authenticate: without HELO the IP stands for it, an address literal in brackets.
  let helo = input.helo || input.ip;
  if (helo && isIP(helo)) helo = `[${helo}]`;
  const spfChecked = verifySpf({ ip: input.ip, helo, sender: input.mailFrom, mta: input.mta, resolver });
  // Settled here too, so a failure while DKIM runs is no unhandled rejection (it is thrown when awaited below).
  spfChecked.catch(() => undefined);
  const dkim = await dkimVerify(input.raw, { resolver, sender: input.mailFrom } as never);
  // The DMARC record's lookups begin now; verifyDmarc asks the same questions (in ASCII: punycode) and gets these answers.
  const dmarcDomain = fromDomain(dkim?.headerFrom);
  if (dmarcDomain) getDmarcRecord(domainToASCII(dmarcDomain) || dmarcDomain, once).catch(() => undefined);
  const spf = await spfChecked;
  const dmarc = dkim?.headerFrom
    ? await verifyDmarc({
        headerFrom: dkim.headerFrom,
        spfDomains: ([] as string[]).concat((spf && spf.status.result === 'pass' && spf.domain) || []),
        dkimDomains: (dkim.results || [])
          .filter((r) => r.status.result === 'pass')
          .map((r) => ({
            id: (r as { id?: string }).id,
            domain: r.signingDomain!,
            aligned: r.status.aligned as never,
            underSized: (r.status as { underSized?: boolean }).underSized,
          })),
        resolver,
      })
    : undefined;
  return { dkim, spf, dmarc: dmarc || (false as const) };
}

/** `resolve`, each (name, type) asked once: later askers get the first answer (or its error). */
function answeringOnce(resolve: RawResolve): RawResolve {
  const answers = new Map<string, Promise<unknown>>();
  return (name, rrtype) => {
    const key = `${name.toLowerCase()}\u0000${rrtype}`;
    let answer = answers.get(key);
    if (!answer) {
      answer = resolve(name, rrtype);
      answers.set(key, answer);
    }
    return answer;
  };
}

/** The domain of the (single) From address, lower-cased. */
function fromDomain(headerFrom: string | string[] | undefined): string | null {
  const address = Array.isArray(headerFrom) ? (headerFrom.length === 1 ? headerFrom[0] : undefined) : headerFrom;
  const at = address?.lastIndexOf('@') ?? -1;
  return address && at >= 0
    ? address
        .slice(at + 1)
        .trim()
        .toLowerCase()
    : null;
}
