/**
 * The results a forward's ARC set carries (shared/domain/inbound/arc-results.ts): the MX listener's checks in RFC
 * 8601's syntax, a stranger's domains and selectors cut to the characters of a name so nothing breaks the field.
 */
import { arcAuthenticationResults } from '#shared/domain/inbound/arc-results';

describe('arcAuthenticationResults', () => {
  it('names each check and what it was of', () => {
    expect(
      arcAuthenticationResults('mx.mailservice.test', {
        spf: { result: 'pass', domain: 'sender.example' },
        dkim: [
          { result: 'pass', domain: 'sender.example', selector: 'mail', aligned: true },
          { result: 'fail', domain: 'esp.example', selector: null, aligned: false },
        ],
        dmarc: { result: 'pass', domain: 'sender.example', policy: 'reject' },
      }),
    ).toBe(
      'mx.mailservice.test; spf=pass smtp.mailfrom=sender.example;\r\n dkim=pass header.d=sender.example header.s=mail;\r\n dkim=fail header.d=esp.example;\r\n dmarc=pass header.from=sender.example',
    );
  });

  it('says dkim=none for an unsigned message, and keeps nothing of a hostile value but its name characters', () => {
    const text = arcAuthenticationResults('mx', {
      spf: { result: 'softfail', domain: 'evil.example;\r\n dkim=pass' },
      dkim: [],
      dmarc: { result: 'none', domain: null, policy: null },
    });
    expect(text).toBe('mx; spf=softfail smtp.mailfrom=evil.exampledkimpass;\r\n dkim=none;\r\n dmarc=none');
    expect(text.split('\r\n')).toHaveLength(3);
  });
});
