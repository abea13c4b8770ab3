/**
 * `syntheticSuppressions`, the generator of N deterministic suppression entries for volume tests (e.g.
 * 10,000 bounces in a provider's seed: sendgrid/seed.ts, postmark/seed.ts, mailgun/seed.ts), and the
 * addresses it uses.
 */

/** `prefix-00000@domain`, `prefix-00001@domain`, …: deterministic, and sorted as generated. */
export function syntheticAddress(prefix: string, domain: string, index: number): string {
  return `${prefix}-${String(index).padStart(6, '0')}@${domain}`;
}

/** `count` entries built from deterministic addresses (see syntheticAddress), e.g. 10,000 bounces. */
export function syntheticSuppressions<T>(
  count: number,
  options: { prefix: string; domain: string; start?: number },
  build: (email: string, index: number) => T,
): T[] {
  const start = options.start ?? 0;
  return Array.from({ length: count }, (_, i) => build(syntheticAddress(options.prefix, options.domain, start + i), start + i));
}
