/**
 * The dashboard's link domain section (functions/api/dashboard-domains/link-domain-section.ts): without a link
 * domain, the button that sets one up (a verified domain only); with one, its status, base URL and message, the
 * records in the order to publish them, and the buttons that check it (or start a failed one over) and stop it,
 * each a POST form carrying the session's CSRF token. What DNS answered is shown as text, never markup.
 */
import { linkDomainSection } from '#functions/api/dashboard-domains/link-domain-section';
import type { PageContext } from '#functions/api/dashboard/pages/forms';
import type { PublicLinkDomain } from '#shared/domain/domains/link-domain/link-domain';
import { LINK_DOMAIN_SERVED_ANSWER } from '../../support/api-answers/link-domain';

const CSRF = 'csrf-token-1';
const c = { get: (key: string) => (key === 'session' ? { session: { csrf_token: CSRF } } : undefined) } as unknown as PageContext;
const DOMAIN = { id: 'dom_01', name: 'example.com' };

const [VALIDATION, LINK_HOST] = LINK_DOMAIN_SERVED_ANSWER.records;
/** The clients' served link domain (pending_dns), its last check having found a value that is markup. */
const SERVED = {
  ...LINK_DOMAIN_SERVED_ANSWER,
  records: [VALIDATION, { ...LINK_HOST, found: ['<img src=x onerror=alert(1)>.example.net'] }],
} as PublicLinkDomain;

/** Each POST form of the section: where it posts, its CSRF token and its button. */
const formsOf = (page: string) =>
  [...page.matchAll(/<form[^>]*method="post" action="([^"]+)"[^>]*>(.*?)<\/form>/g)].map(([, action, inner]) => ({
    action,
    csrf: /name="csrf_token" value="([^"]*)"/.exec(inner!)?.[1],
    button: />([^<]+)<\/button>/.exec(inner!)?.[1],
  }));

describe("the domain page's link domain section", () => {
  it('offers to set one up for a verified domain (a POST form with the CSRF token), and says to verify first otherwise', () => {
    const offered = String(linkDomainSection(c, DOMAIN, null, true));
    expect(offered).toContain('<h2 id="link-domain-heading">Link domain</h2>');
    expect(offered).toContain('<code>links.example.com</code>');
    expect(formsOf(offered)).toEqual([{ action: '/dashboard/domains/dom_01/link-domain', csrf: CSRF, button: 'Set up a link domain' }]);
    const unverified = String(linkDomainSection(c, DOMAIN, null, false));
    expect(unverified).toContain('Verify the domain first.');
    expect(formsOf(unverified)).toEqual([]);
  });

  it('shows the status, base URL, message and the records in order, with the buttons that check it and stop it', () => {
    const page = String(linkDomainSection(c, DOMAIN, SERVED, true));
    expect(page).toContain('Status: <span class="status');
    expect(page).toContain('pending dns</span>');
    expect(page).toContain('<code>https://links.example.com</code>');
    expect(page).toContain('publish the link_host CNAME (links.example.com to d-abc123.execute-api.eu-west-1.amazonaws.com)');
    expect(page).toContain('<caption class="muted">Records of the link domain links.example.com, in the order to publish them</caption>');
    const rows = [...page.matchAll(/<tr><td>([^<]+)<\/td><td>([^<]+)<\/td><td><code>([^<]+)<\/code>/g)].map((row) => row.slice(1));
    expect(rows).toEqual([
      ['certificate validation', 'CNAME', '_a1.links.example.com'],
      ['link host', 'CNAME', 'links.example.com'],
    ]);
    expect(page).toContain('<time datetime="2026-03-01T10:15:00.000Z">');
    expect(formsOf(page)).toEqual([
      { action: '/dashboard/domains/dom_01/link-domain', csrf: CSRF, button: 'Check the link domain' },
      { action: '/dashboard/domains/dom_01/link-domain/delete', csrf: CSRF, button: 'Stop the link domain' },
    ]);
  });

  it('shows what DNS answered as text, never markup', () => {
    const page = String(linkDomainSection(c, DOMAIN, SERVED, true));
    expect(page).toContain('Found: &lt;img src=x onerror=alert(1)&gt;.example.net');
    expect(page).not.toContain('<img');
  });

  it('says no record is listed yet right after it is asked for; a failed one is started over', () => {
    const asked = String(linkDomainSection(c, DOMAIN, { ...SERVED, status: 'pending_certificate', records: [], checked_at: null }, true));
    expect(asked).toContain('No record to publish yet: the certificate validation record is listed within a minute.');
    expect(asked).not.toContain('<table>');
    const failed = String(linkDomainSection(c, DOMAIN, { ...SERVED, status: 'failed', message: 'The certificate was not issued.' }, true));
    expect(formsOf(failed).map((form) => form.button)).toEqual(['Start the link domain over', 'Stop the link domain']);
  });
});
