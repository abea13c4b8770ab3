/** A paused account's banner on every dashboard page (docs/deliverability.md, "Reputation guard"): reason and figures, escaped. */
import { accountBanner } from '#functions/api/dashboard/pages/account-banner';
import { renderDocument } from '#functions/api/dashboard/pages/layout';
import type { Account } from '#shared/domain/accounts/account';

const account: Account = {
  id: 'acc_1',
  email: 'o@x.test',
  plan: 'pro',
  payment_method: true,
  tenants_enabled: false,
  created_at: 'x',
  updated_at: 'x',
};
const figures = { sent: 300, bounced: 60, complained: 0, bounce_rate: 0.2, complaint_rate: 0 };

describe('the paused account banner', () => {
  it('is nothing for an active account (or one from before the guard)', () => {
    expect(accountBanner(account)).toBe('');
    expect(accountBanner({ ...account, status: 'active' })).toBe('');
  });

  it('says sends are refused, why, who paused it and the figures, with the reason escaped', () => {
    const paused: Account = {
      ...account,
      status: 'paused',
      paused_reason: 'Reputation brake: <script>alert(1)</script>',
      paused_at: '2026-11-25T12:00:00.000Z',
      pause_source: 'automated',
      pause_figures: {
        rule: 'deployment_brake',
        metric: 'bounce',
        threshold: 0.04,
        window_days: 2,
        account: figures,
        deployment: { ...figures, sent: 3000, bounced: 130, bounce_rate: 0.043333 },
      },
    };
    const page = renderDocument('/dashboard/emails', {
      title: 'Emails',
      body: '' as never,
      user: { email: 'o@x.test', csrf: 'c' },
      banner: accountBanner(paused),
    });
    expect(page).toContain('This account is paused');
    expect(page).toContain('account_paused');
    expect(page).toContain('the reputation brake');
    expect(page).toContain('20.0% of 300 sent');
    expect(page).toContain('4.3% of 3000 sent');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script>alert(1)');
    // Signed out pages never carry it.
    expect(
      renderDocument('/dashboard/sign-in', { title: 'Sign in', body: '' as never, user: null, banner: accountBanner(paused) }),
    ).not.toContain('This account is paused');
  });
});
