/** Loop protection (shared/domain/inbound/auto-submitted.ts): whether a received message was sent by a machine. */
import { autoSubmitted } from '#shared/domain/inbound/auto-submitted';

/** A header lookup over lower-cased names, as process-inbound builds it. */
function headers(fields: Record<string, string> = {}): (name: string) => string | null {
  const lower = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name.toLowerCase(), value]));
  return (name) => lower[name] ?? null;
}

const PERSON = 'alice@example.com';

describe('autoSubmitted', () => {
  it('keeps a declared Auto-Submitted value (first token, lower-cased)', () => {
    expect(autoSubmitted(headers({ 'Auto-Submitted': 'auto-replied' }), PERSON)).toBe('auto-replied');
    expect(autoSubmitted(headers({ 'Auto-Submitted': ' Auto-Generated ' }), PERSON)).toBe('auto-generated');
    expect(autoSubmitted(headers({ 'Auto-Submitted': 'auto-notified; owner-email="a@example.com"' }), PERSON)).toBe('auto-notified');
  });

  it('treats Auto-Submitted: no as a person (null), unless other signs say otherwise', () => {
    expect(autoSubmitted(headers({ 'Auto-Submitted': 'no' }), PERSON)).toBeNull();
    expect(autoSubmitted(headers({ 'Auto-Submitted': 'No' }), PERSON)).toBeNull();
    expect(autoSubmitted(headers({ 'Auto-Submitted': 'no', Precedence: 'bulk' }), PERSON)).toBe('auto-generated');
  });

  it('calls a null envelope sender (a bounce) auto-generated', () => {
    expect(autoSubmitted(headers(), '')).toBe('auto-generated');
    expect(autoSubmitted(headers({ 'Auto-Submitted': 'no' }), '')).toBe('auto-generated');
  });

  it('calls Precedence bulk / junk / list / auto_reply auto-generated, and not other values', () => {
    for (const value of ['bulk', 'junk', 'list', 'auto_reply', ' BULK ']) {
      expect(autoSubmitted(headers({ Precedence: value }), PERSON)).toBe('auto-generated');
    }
    expect(autoSubmitted(headers({ Precedence: 'first-class' }), PERSON)).toBeNull();
  });

  it('calls X-Autoreply, X-Autorespond and List-Id auto-generated', () => {
    expect(autoSubmitted(headers({ 'X-Autoreply': 'yes' }), PERSON)).toBe('auto-generated');
    expect(autoSubmitted(headers({ 'X-Autorespond': 'Out of office' }), PERSON)).toBe('auto-generated');
    expect(autoSubmitted(headers({ 'List-Id': 'Announcements <announce.example.com>' }), PERSON)).toBe('auto-generated');
  });

  it("is null for a person's mail", () => {
    expect(
      autoSubmitted(headers({ From: 'Alice <alice@example.com>', Subject: 'Hello', 'Message-ID': '<1@example.com>' }), PERSON),
    ).toBeNull();
  });
});
