/**
 * SSRF guard for webhook endpoints (pure). Two halves:
 * - `checkWebhookUrl`: the syntactic part, at creation and before every delivery (https only, no
 *   credentials, IP-literal hosts judged here, internal-looking names refused);
 * - `classifyAddress` / `isForbiddenAddress`: judges each address a name resolves to; the sender
 *   resolves once, checks EVERY address, and connects only to the checked ones (no second lookup).
 *
 * Policy: production refuses everything non-public. The local cloud sets `allowLoopback`, which admits
 * 127/8, ::1 (and IPv4-mapped loopback) and the name `localhost` (and `*.localhost`), never private
 * ranges or metadata addresses.
 */

export interface SsrfPolicy {
  allowLoopback: boolean;
}

export const PRODUCTION_POLICY: SsrfPolicy = { allowLoopback: false };

export type AddressCategory =
  | 'public'
  | 'invalid'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'metadata'
  | 'special'
  | 'benchmarking'
  | 'multicast'
  | 'reserved'
  | 'broadcast'
  | 'unique-local'
  | 'site-local';

type Range = readonly [base: number, prefix: number, category: AddressCategory];

/** IPv4 ranges, most specific first. */
const IPV4_RANGES: readonly Range[] = [
  [ipv4(169, 254, 169, 254), 32, 'metadata'], // EC2/GCP/Azure instance metadata
  [ipv4(255, 255, 255, 255), 32, 'broadcast'],
  [ipv4(0, 0, 0, 0), 8, 'unspecified'], // "this network"
  [ipv4(10, 0, 0, 0), 8, 'private'],
  [ipv4(100, 64, 0, 0), 10, 'shared'], // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
  [ipv4(127, 0, 0, 0), 8, 'loopback'],
  [ipv4(169, 254, 0, 0), 16, 'link-local'],
  [ipv4(172, 16, 0, 0), 12, 'private'],
  [ipv4(192, 0, 0, 0), 24, 'special'], // IETF protocol assignments (Oracle's metadata 192.0.0.192)
  [ipv4(192, 168, 0, 0), 16, 'private'],
  [ipv4(198, 18, 0, 0), 15, 'benchmarking'],
  [ipv4(224, 0, 0, 0), 4, 'multicast'],
  [ipv4(240, 0, 0, 0), 4, 'reserved'],
];

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function inRange(value: number, base: number, prefix: number): boolean {
  if (prefix === 0) return true;
  const mask = prefix === 32 ? 0xffffffff : (~0 << (32 - prefix)) >>> 0;
  return (value & mask) >>> 0 === (base & mask) >>> 0;
}

/** Strict dotted decimal (no leading zeros, no short forms): anything else is not an address we accept. */
export function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** Eight 16-bit groups; accepts `::` compression, a trailing dotted quad and a `%zone` suffix. */
export function parseIPv6(text: string): number[] | null {
  let rest = text;
  const zone = rest.indexOf('%');
  if (zone >= 0) rest = rest.slice(0, zone);
  if (rest.includes('.')) {
    // A trailing dotted quad (::ffff:1.2.3.4) becomes its two hex groups.
    const lastColon = rest.lastIndexOf(':');
    const v4 = parseIPv4(rest.slice(lastColon + 1));
    if (lastColon < 0 || v4 === null) return null;
    rest = `${rest.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = rest.split('::');
  if (halves.length > 2) return null;
  const toGroups = (half: string): number[] | null => {
    if (half === '') return [];
    const groups: number[] = [];
    for (const group of half.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
      groups.push(parseInt(group, 16));
    }
    return groups;
  };
  const head = toGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? toGroups(halves[1] ?? '') : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function classifyIPv4(value: number): AddressCategory {
  for (const [base, prefix, category] of IPV4_RANGES) if (inRange(value, base, prefix)) return category;
  return 'public';
}

function embeddedIPv4(groups: number[], high: number, low: number): number {
  return ((groups[high] ?? 0) * 0x10000 + (groups[low] ?? 0)) >>> 0;
}

function classifyIPv6(g: number[]): AddressCategory {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return 'unspecified'; // ::
  if (zeroUpTo(7) && g[7] === 1) return 'loopback'; // ::1
  // IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d: judged by the IPv4.
  if (zeroUpTo(5) && g[5] === 0xffff) return classifyIPv4(embeddedIPv4(g, 6, 7));
  if (zeroUpTo(6)) return classifyIPv4(embeddedIPv4(g, 6, 7));
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return classifyIPv4(embeddedIPv4(g, 6, 7));
  // NAT64 well-known prefix 64:ff9b::/96: judged by the IPv4; the local-use 64:ff9b:1::/48 is site-specific.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return classifyIPv4(embeddedIPv4(g, 6, 7));
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'private';
  // 6to4 2002:AABB:CCDD::/48 carries the IPv4 AA.BB.CC.DD.
  if (g[0] === 0x2002) return classifyIPv4(embeddedIPv4(g, 1, 2));
  const first = g[0] ?? 0;
  if (first === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) {
    return 'metadata'; // AWS IPv6 instance metadata fd00:ec2::254
  }
  if ((first & 0xfe00) === 0xfc00) return 'unique-local'; // fc00::/7
  if ((first & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((first & 0xffc0) === 0xfec0) return 'site-local'; // fec0::/10 (deprecated, still private)
  if ((first & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  return 'public';
}

/** What an IP address is; `invalid` for anything that does not parse as one. */
export function classifyAddress(ip: string): AddressCategory {
  const text = ip.trim().replace(/^\[(.*)\]$/, '$1');
  if (text.includes(':')) {
    const groups = parseIPv6(text);
    return groups ? classifyIPv6(groups) : 'invalid';
  }
  const v4 = parseIPv4(text);
  return v4 === null ? 'invalid' : classifyIPv4(v4);
}

/** True when a webhook must not connect there. Unparseable input is forbidden (fail closed). */
export function isForbiddenAddress(ip: string, policy: SsrfPolicy = PRODUCTION_POLICY): boolean {
  const category = classifyAddress(ip);
  if (category === 'public') return false;
  return !(category === 'loopback' && policy.allowLoopback);
}

/** Names that point inside a network by convention; refused whatever they resolve to. */
const INTERNAL_SUFFIXES = ['.internal', '.local', '.localdomain', '.arpa', '.lan', '.intranet', '.corp', '.home'];

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * The syntactic check, at creation and before each delivery. Hostnames that pass still have to resolve
 * to allowed addresses at delivery time (the sender checks).
 */
export function checkWebhookUrl(url: string, policy: SsrfPolicy): UrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (parsed.protocol !== 'https:') return { ok: false, reason: 'the URL must use https' };
  if (parsed.username || parsed.password) return { ok: false, reason: 'the URL must not contain credentials' };
  const host = parsed.hostname.replace(/\.$/, '');
  if (!host) return { ok: false, reason: 'the URL has no host' };
  if (host.startsWith('[') || parseIPv4(host) !== null) {
    const category = classifyAddress(host);
    if (isForbiddenAddress(host, policy)) return { ok: false, reason: `the host is a forbidden address (${category})` };
    return { ok: true, url: parsed };
  }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return policy.allowLoopback ? { ok: true, url: parsed } : { ok: false, reason: 'the host is a loopback name' };
  }
  if (!host.includes('.')) return { ok: false, reason: 'the host must be a fully qualified domain name' };
  if (INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return { ok: false, reason: 'the host is an internal name' };
  }
  return { ok: true, url: parsed };
}
