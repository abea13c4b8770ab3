/**
 * A hosted MTA-STS policy (RFC 8461): the text served at `https://mta-sts.<policy domain>/.well-known/mta-sts.txt`
 * and the TXT record `_mta-sts.<policy domain>` that announces it. The policy domain is a receiving subdomain
 * (`inbound.<domain>`), whose only MX is this service's (INBOUND_MX_HOST), so the service knows the policy's
 * `mx` line; a domain's own MX hosts are its owner's to describe. Pure.
 */
import * as z from 'zod';

/** RFC 8461 section 5: enforce (refuse delivery without valid TLS), testing (deliver, report failures), none (policy withdrawn). */
export const MTA_STS_MODES = ['enforce', 'testing', 'none'] as const;
export type MtaStsMode = (typeof MTA_STS_MODES)[number];

/** RFC 8461 section 3.2: max_age is at most 31557600 s (a year); "weeks or greater" is recommended. A day at least here. */
export const MIN_MAX_AGE_S = 86_400;
export const MAX_MAX_AGE_S = 31_557_600;
/** One week: long enough to protect, short enough to change mode in a week (RFC 8461 section 3.2 recommends weeks). */
export const DEFAULT_MAX_AGE_S = 604_800;

/** The policy host of a policy domain (RFC 8461 section 3.3). */
export const POLICY_HOST_LABEL = 'mta-sts';
export const policyHostOf = (policyDomain: string) => `${POLICY_HOST_LABEL}.${policyDomain}`;
/** The policy domain a policy host serves; null for a host that is not `mta-sts.<domain>`. */
export function policyDomainOfHost(host: string): string | null {
  const name = host.trim().toLowerCase().replace(/\.$/, '').replace(/:\d+$/, '');
  return name.startsWith(`${POLICY_HOST_LABEL}.`) && name.length > POLICY_HOST_LABEL.length + 1
    ? name.slice(POLICY_HOST_LABEL.length + 1)
    : null;
}

/** The announcing record's name (RFC 8461 section 3.1). */
export const policyRecordName = (policyDomain: string) => `_mta-sts.${policyDomain}`;
export const policyRecordValue = (policyId: string) => `v=STSv1; id=${policyId}`;

/** The TLS-RPT record suggested beside it (RFC 8460 section 3): reports mailed to the receiving subdomain itself. */
export const tlsRptRecordName = (policyDomain: string) => `_smtp._tls.${policyDomain}`;
export const tlsRptRecordValue = (policyDomain: string) => `v=TLSRPTv1; rua=mailto:tls-reports@${policyDomain}`;

/**
 * A policy id: 1 to 32 letters and digits (RFC 8461 section 3.1), new whenever the policy changes: the
 * change's time (14 digits) and the hosting's version, so two changes in one second differ too.
 */
export function policyIdOf(changedAt: string, version: number): string {
  return `${changedAt.replace(/\D/g, '').slice(0, 14)}${version}`.slice(0, 32);
}

/**
 * The policy text (RFC 8461 section 3.2): `key: value` lines separated by CRLF, version first; one `mx` line
 * per MX host (here the service's one). `none` needs no mx line, and has none.
 */
export function policyText(policy: { mode: MtaStsMode; mxHosts: string[]; maxAgeS: number }): string {
  const lines = [
    'version: STSv1',
    `mode: ${policy.mode}`,
    ...(policy.mode === 'none' ? [] : policy.mxHosts.map((host) => `mx: ${host}`)),
    `max_age: ${policy.maxAgeS}`,
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** PUT /domains/{id}/mta-sts: the policy to host. */
export const mtaStsInputSchema = z
  .object({
    mode: z
      .enum(MTA_STS_MODES, { error: `mode must be one of ${MTA_STS_MODES.join(', ')}` })
      .describe(
        'enforce: senders that support MTA-STS deliver only over TLS to a host the policy names, with a valid certificate; testing: they deliver anyway and report failures (TLS-RPT); none: the policy is withdrawn (RFC 8461 section 8.3: keep it hosted for max_age before removing it)',
      ),
    max_age: z
      .number({ error: 'max_age must be a number of seconds' })
      .int('max_age must be a whole number of seconds')
      .min(MIN_MAX_AGE_S, `max_age is at least ${MIN_MAX_AGE_S} (a day)`)
      .max(MAX_MAX_AGE_S, `max_age is at most ${MAX_MAX_AGE_S} (RFC 8461 section 3.2)`)
      .optional()
      .describe(`how long senders keep the policy, in seconds (default ${DEFAULT_MAX_AGE_S}: a week)`),
  })
  .strict();
export type MtaStsInput = z.output<typeof mtaStsInputSchema>;
