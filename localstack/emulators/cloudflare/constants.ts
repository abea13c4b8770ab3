/** What the local cloud's fake Cloudflare API knows without being told: its token and the account its zones belong to. */

/** The token the local cloud's fake accepts (docs/domains.md, "DNS apply", trying it locally). */
export const CLOUDFLARE_LOCAL_TOKEN = 'local-cloudflare-token-0123456789abcdef';
export const CLOUDFLARE_LOCAL_ACCOUNT = { id: '0123456789abcdef0123456789abcdef', name: 'Local account' };
