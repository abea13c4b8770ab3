/**
 * Dashboard sign-in through an OpenID Connect provider (docs/dashboard.md, "Sign-in with OpenID Connect"):
 * the deployment's settings, the flow kept server-side between the redirect to the provider and its
 * callback, and the rules an identity the provider vouches for must meet before it signs a member in. Pure.
 */
import { normaliseEmail } from '../mail/address';

export const OIDC_START_PATH = '/dashboard/sign-in/oidc';
export const OIDC_CALLBACK_PATH = '/dashboard/sign-in/oidc/callback';

/** The cookie that ties a flow to the browser that started it (HttpOnly; its token's hash keys the flow). */
export const OIDC_FLOW_COOKIE = 'svc_oidc';
/** How long a started flow may wait for its callback: a sign-in at the provider takes a minute or two. */
export const OIDC_FLOW_TTL_MS = 10 * 60_000;

/** The method a sign-in's audit record names (`resource_ids.method`, docs/audit-log.md); a password sign-in names none. */
export const OIDC_AUDIT_METHOD = 'oidc';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** The button's text after "Sign in with". */
  label: string;
  /** Lower-cased email domains that may sign in; empty: any. */
  allowedDomains: string[];
  /** The client secret as `npm run admin -- oidc seal-secret` sealed it; null: a public client (PKCE only). */
  sealedClientSecret: string | null;
  /** Why the settings cannot work (a bad issuer URL), or null: the sign-in answers 503 with it rather than guess. */
  problem: string | null;
}

export const DEFAULT_OIDC_LABEL = 'OpenID Connect';

/** Loopback hosts, where an http issuer is allowed (the local cloud's provider). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === '[::1]' || hostname === '::1';
}

/** The settings from their values (OIDC_*, shared/config/settings.ts); null when OIDC is not configured (no issuer or no client id). */
export function oidcSettingsFromValues(values: {
  issuer: string;
  clientId: string;
  label: string;
  allowedDomains: string;
  sealedClientSecret: string;
}): OidcSettings | null {
  const issuer = values.issuer.trim();
  const clientId = values.clientId.trim();
  if (issuer === '' || clientId === '') return null;
  let problem: string | null = null;
  try {
    const url = new URL(issuer);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))
      problem = `OIDC_ISSUER must be an https URL (http only on a loopback address), got "${issuer}"`;
    else if (url.search || url.hash)
      problem = `OIDC_ISSUER must be the provider's issuer identifier, without a query or fragment, got "${issuer}"`;
  } catch {
    problem = `OIDC_ISSUER is not a URL: "${issuer}"`;
  }
  const allowedDomains = values.allowedDomains
    .split(',')
    .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
    .filter((domain) => domain !== '');
  return {
    issuer,
    clientId,
    label: values.label.trim() || DEFAULT_OIDC_LABEL,
    allowedDomains,
    sealedClientSecret: values.sealedClientSecret.trim() || null,
    problem,
  };
}

/** The context a client secret is sealed with: bound to its issuer and client, so a sealed value opens for them only. */
export const oidcSecretContext = (settings: Pick<OidcSettings, 'issuer' | 'clientId'>): Record<string, string> => ({
  purpose: 'oidc_client_secret',
  issuer: settings.issuer,
  client_id: settings.clientId,
});

/** A flow between the redirect to the provider and its callback (the table keeps it; the browser only the cookie's token). */
export interface OidcFlow {
  state: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  /** Where the browser goes once signed in (already safe: a dashboard page). */
  next: string;
  created_at: string;
  expires_at: string;
}

export const oidcFlowExpired = (flow: Pick<OidcFlow, 'expires_at'>, now: Date): boolean => Date.parse(flow.expires_at) <= now.getTime();

/** The redirect URI the provider must have registered for this dashboard (its origin and the callback path). */
export const oidcRedirectUri = (dashboardOrigin: string): string => `${dashboardOrigin.replace(/\/+$/, '')}${OIDC_CALLBACK_PATH}`;

/** What the provider said of the person (the ID token's claims, with the userinfo's when the token had no email). */
export interface OidcClaims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
}

export type OidcIdentity =
  | { ok: true; email: string }
  | { ok: false; reason: 'no_email' | 'unverified_email' | 'domain_not_allowed'; email: string | null; message: string };

/** The email the claims vouch for, if it may sign in here: present, verified by the provider, of an allowed domain. */
export function oidcIdentity(claims: OidcClaims, allowedDomains: readonly string[], label: string): OidcIdentity {
  if (typeof claims.email !== 'string' || !claims.email.includes('@')) {
    return {
      ok: false,
      reason: 'no_email',
      email: null,
      message: `${label} did not share an email address: allow the dashboard the "email" scope at the provider.`,
    };
  }
  const email = normaliseEmail(claims.email);
  // Only `true` counts (a string "true" is a provider's bug, not a verification).
  if (claims.email_verified !== true) {
    return {
      ok: false,
      reason: 'unverified_email',
      email,
      message: `${label} has not verified the email address ${email}: verify it there, then sign in again.`,
    };
  }
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (allowedDomains.length > 0 && !allowedDomains.includes(domain)) {
    return { ok: false, reason: 'domain_not_allowed', email, message: `Addresses of ${domain} may not sign in with ${label} here.` };
  }
  return { ok: true, email };
}
