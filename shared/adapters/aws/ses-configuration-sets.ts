/**
 * The SES configuration sets the service sends through: the main one (SES_CONFIGURATION_SET), and its
 * TLS-required twin for domains with `tls_mode: enforced` (PATCH /domains/{id}): SES then delivers only
 * over TLS and bounces a message the receiving server cannot take over TLS (DeliveryOptions.TlsPolicy
 * REQUIRE). Both publish the same events. The twin's name is derived, so no setting can drift.
 */
export function tlsRequiredConfigurationSet(name: string): string {
  return `${name}-tls-required`;
}
