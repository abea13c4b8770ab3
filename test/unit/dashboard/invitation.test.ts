/**
 * The invitation's pure parts (docs/dashboard.md, "Teams and roles"): the token and its stored hash, the
 * link and the dashboard origin it is built on (https behind API Gateway, http on the local cloud's
 * loopback), expiry, what the answers show, and the invitation email (escaped, with the link).
 */
import {
  dashboardOrigin,
  invitationExpired,
  invitationLink,
  invitationTokenHash,
  newInvitationId,
  newInvitationToken,
  toPublicInvitation,
  type Invitation,
} from '#shared/domain/dashboard/invitation';
import { invitationMessage } from '#shared/usecases/dashboard/invitation-email';

const invitation: Invitation = {
  id: newInvitationId(Date.parse('2026-11-25T10:00:00Z')),
  account_id: 'acc_1',
  email: 'dev@acme.test',
  role: 'developer',
  invited_by: 'usr_1',
  invited_by_email: '<b>boss</b>@acme.test',
  created_at: '2026-11-25T10:00:00.000Z',
  expires_at: '2026-12-02T10:00:00.000Z',
};

describe('invitation tokens and links', () => {
  it('a token is 32 random bytes (43 base64url characters); only its SHA-256 is a key', () => {
    const token = newInvitationToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newInvitationToken()).not.toBe(token);
    expect(invitationTokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(invitationTokenHash(token)).not.toContain(token);
  });

  it('ids are inv_ and a ULID', () => {
    expect(invitation.id).toMatch(/^inv_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('the origin: https behind API Gateway, http on a loopback address (the local cloud)', () => {
    expect(dashboardOrigin('https://abc.execute-api.eu-west-1.amazonaws.com/dashboard/members')).toBe(
      'https://abc.execute-api.eu-west-1.amazonaws.com',
    );
    expect(dashboardOrigin('https://127.0.0.1:3000/dashboard/members')).toBe('http://127.0.0.1:3000');
    expect(dashboardOrigin('https://localhost:3000/x')).toBe('http://localhost:3000');
    expect(dashboardOrigin('https://dash.example.com/x')).toBe('https://dash.example.com');
  });

  it('the link is the accept page with the token', () => {
    expect(invitationLink('http://127.0.0.1:3000/', 'tok')).toBe('http://127.0.0.1:3000/dashboard/accept-invitation?token=tok');
  });

  it('expires at expires_at', () => {
    expect(invitationExpired(invitation, new Date('2026-12-02T09:59:59.999Z'))).toBe(false);
    expect(invitationExpired(invitation, new Date('2026-12-02T10:00:00.000Z'))).toBe(true);
  });

  it('answers show the inviter by address and never the token', () => {
    expect(toPublicInvitation(invitation)).toEqual({
      object: 'dashboard_invitation',
      id: invitation.id,
      account_id: 'acc_1',
      email: 'dev@acme.test',
      role: 'developer',
      invited_by: '<b>boss</b>@acme.test',
      created_at: invitation.created_at,
      expires_at: invitation.expires_at,
    });
  });
});

describe('the invitation email', () => {
  const link = 'http://127.0.0.1:3000/dashboard/accept-invitation?token=a&b';
  const message = invitationMessage(invitation, link);

  it('says who invites, the role, the link and until when, in the text', () => {
    expect(message.subject).toBe('<b>boss</b>@acme.test invited you to their mail service dashboard');
    expect(message.text).toContain('as developer (every page and change of the mail setup; no members or billing)');
    expect(message.text).toContain(link);
    expect(message.text).toContain('until 2026-12-02 10:00:00 UTC');
  });

  it('escapes everything in the HTML', () => {
    expect(message.html).not.toContain('<b>boss</b>');
    expect(message.html).toContain('&lt;b&gt;boss&lt;/b&gt;');
    expect(message.html).toContain('href="http://127.0.0.1:3000/dashboard/accept-invitation?token=a&amp;b"');
  });
});
