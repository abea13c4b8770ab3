/**
 * Service settings (not resources) and their defaults. Each can be overridden by the environment
 * variable of the same name; CDK passes them from context, the local cloud from its environment.
 */
export const DEFAULT_SETTINGS = {
  /** The shared sandbox sender's domain. */
  SANDBOX_DOMAIN: 'sandbox.mailservice.dev',
  /** Host the return-path CNAME `rp.<domain>` must point to. */
  RETURN_PATH_HOST: 'rp.mailservice.dev',
  /** The service's SPF include (`include:<this>` in a domain's SPF record). */
  SPF_INCLUDE: 'spf.mailservice.dev',
  /** MX host of receive-enabled (inbound) subdomains. */
  INBOUND_MX_HOST: 'inbound.mailservice.dev',
  /** Base of dashboard links in errors (upgrade_url) and claim instructions. */
  DASHBOARD_URL: 'https://dashboard.mailservice.dev',
  /** DNS resolvers for domain verification (`host:port`, comma-separated); empty = the system's. */
  DNS_RESOLVERS: '',
  /**
   * Public base URL of the links API group (unsubscribe, open pixel, click redirect: docs/tracking.md),
   * no trailing slash. The CDK stack passes the HTTP API's endpoint unless `-c linksBaseUrl=...` is given;
   * the local cloud passes its own API URL. Empty: emails cannot get signed links (the send fails loudly).
   */
  LINKS_BASE_URL: '',
  /**
   * Dashboard sign-in through an OpenID Connect provider (docs/dashboard.md, "Sign-in with OpenID Connect"),
   * optional: without an issuer and a client id the sign-in page offers passwords only. OIDC_ISSUER is the
   * provider's issuer URL (https; http only on a loopback address), OIDC_CLIENT_ID the dashboard's client
   * there, OIDC_LABEL the button's text after "Sign in with" (default "OpenID Connect"), OIDC_ALLOWED_DOMAINS
   * the email domains that may sign in (comma-separated; empty: any), OIDC_CLIENT_SECRET_SEALED the client
   * secret sealed by `npm run admin -- oidc seal-secret` (never the secret itself; empty: a public client,
   * PKCE only).
   */
  OIDC_ISSUER: '',
  OIDC_CLIENT_ID: '',
  OIDC_LABEL: '',
  OIDC_ALLOWED_DOMAINS: '',
  OIDC_CLIENT_SECRET_SEALED: '',
  /**
   * The reputation guard (docs/deliverability.md, "Reputation guard"): the deployment's bounce and complaint
   * rates at which the brake pauses the accounts and tenants driving them (rates: 0.04 is 4%; each must be
   * under AWS's review rate, 5% and 0.1%, else its default is used), and the CloudWatch alarms' thresholds on
   * SES's Reputation.BounceRate / Reputation.ComplaintRate; the deployment's emails sent in the window (today
   * and yesterday) before its rate counts, and a unit's (account or tenant) before the brake may pause it.
   */
  REPUTATION_BOUNCE_RATE: '0.04',
  REPUTATION_COMPLAINT_RATE: '0.0008',
  REPUTATION_DEPLOYMENT_MIN_SENT: '1000',
  REPUTATION_OFFENDER_MIN_SENT: '100',
  /**
   * What the functions and the relay task log (shared/lib/log.ts): `warn` by default, so normal operation writes
   * no line per email (CloudWatch Logs bills each GB ingested); `info` adds a line per batch and per step
   * (`-c logLevel=info`, or `LOG_LEVEL=info npm start`), `error`, `silent`.
   */
  LOG_LEVEL: 'warn',
};

export type SettingName = keyof typeof DEFAULT_SETTINGS;
