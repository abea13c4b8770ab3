/**
 * Was an open or a click made by a person, or by a machine acting for the mailbox (docs/tracking.md)?
 * Privacy proxies fetch every pixel, and security gateways fetch every link, within seconds of delivery:
 * counting those as engagement would make every email "opened" and "clicked". A hit is a machine hit when
 * any rule matches; every matching rule is reported, in this order:
 *
 * | reason | rule |
 * |---|---|
 * | `head_request` | the request is a HEAD (browsers GET; scanners check links with HEAD) |
 * | `apple_mail_privacy` | Apple Mail Privacy Protection: the address is in 17.0.0.0/8 (Apple's), or the User-Agent is exactly `Mozilla/5.0` (MPP's proxy sends nothing more) |
 * | `link_scanner` | the User-Agent names a security gateway, a link preview, a headless browser, an HTTP library or a robot (LINK_SCANNER_PATTERNS) |
 * | `too_soon_after_delivery` | a click within CLICK_TOO_SOON_MS of delivery (delivered_at, else sent_at): gateways follow links on arrival |
 * | `no_user_agent` | no User-Agent at all (every mail client and browser sends one) |
 *
 * Pure. The caller records machine hits as events (marked `machine: true`) but not as opens or clicks.
 */

export type HitKind = 'open' | 'click';
export type MachineReason = 'head_request' | 'apple_mail_privacy' | 'link_scanner' | 'too_soon_after_delivery' | 'no_user_agent';

/** A click this soon after delivery is a gateway following the link, not a reader. */
export const CLICK_TOO_SOON_MS = 10_000;

/** The exact User-Agent of Apple's Mail Privacy Protection proxy. */
export const APPLE_PRIVACY_USER_AGENT = 'Mozilla/5.0';

/** User-Agent fragments of machines (matched case-insensitively). */
export const LINK_SCANNER_PATTERNS: readonly string[] = [
  // Security gateways and link protection.
  'barracuda',
  'mimecast',
  'proofpoint',
  'safelinks',
  'microsoft office existence discovery',
  'microsoft office/',
  'symantec',
  'messagelabs',
  'forcepoint',
  'trendmicro',
  'trend micro',
  'sophos',
  'fireeye',
  'ironport',
  'zscaler',
  'cloudmark',
  'fortiguard',
  'avanan',
  'checkpoint',
  // Headless and automated browsers.
  'headlesschrome',
  'phantomjs',
  'puppeteer',
  'playwright',
  'selenium',
  // HTTP libraries and command-line tools.
  'python-requests',
  'python-urllib',
  'aiohttp',
  'curl/',
  'wget/',
  'go-http-client',
  'java/',
  'apache-httpclient',
  'okhttp',
  'libwww-perl',
  'node-fetch',
  'axios/',
  'undici',
  'httpclient',
  'postmanruntime',
  'guzzlehttp',
  'ruby',
  // Robots, crawlers and link previews.
  'bot',
  'crawler',
  'spider',
  'slurp',
  'preview',
  'facebookexternalhit',
  'google-safety',
  'scanner',
];

export interface HitFacts {
  method: string;
  userAgent: string | null | undefined;
  ip: string | null | undefined;
  /** When the hit happened. */
  at: Date | string;
  deliveredAt: string | null | undefined;
  sentAt: string | null | undefined;
  kind: HitKind;
}

export interface HitClassification {
  machine: boolean;
  reasons: MachineReason[];
}

/** True for an IPv4 address (or an IPv4-mapped IPv6 one) in 17.0.0.0/8. */
export function isAppleAddress(ip: string | null | undefined): boolean {
  if (!ip) return false;
  const v4 = ip
    .trim()
    .toLowerCase()
    .replace(/^::ffff:/, '');
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v4);
  return match !== null && match[1] === '17' && match.slice(2).every((part) => Number(part) <= 255);
}

export function isLinkScanner(userAgent: string): boolean {
  const ua = userAgent.toLowerCase();
  return LINK_SCANNER_PATTERNS.some((pattern) => ua.includes(pattern));
}

export function classifyHit(hit: HitFacts): HitClassification {
  const reasons: MachineReason[] = [];
  const userAgent = (hit.userAgent ?? '').trim();
  if (hit.method.toUpperCase() === 'HEAD') reasons.push('head_request');
  if (isAppleAddress(hit.ip) || userAgent === APPLE_PRIVACY_USER_AGENT) reasons.push('apple_mail_privacy');
  if (userAgent !== '' && isLinkScanner(userAgent)) reasons.push('link_scanner');
  if (hit.kind === 'click') {
    const reference = hit.deliveredAt ?? hit.sentAt;
    const at = typeof hit.at === 'string' ? Date.parse(hit.at) : hit.at.getTime();
    if (reference && at - Date.parse(reference) < CLICK_TOO_SOON_MS) reasons.push('too_soon_after_delivery');
  }
  if (userAgent === '') reasons.push('no_user_agent');
  return { machine: reasons.length > 0, reasons };
}
