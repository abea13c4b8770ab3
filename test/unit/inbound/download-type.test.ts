/** The type a link to a stranger's attachment is served with (shared/domain/inbound/download-type.ts). */
import { downloadContentType, SAFE_DOWNLOAD_TYPE } from '#shared/domain/inbound/download-type';

describe('downloadContentType', () => {
  it.each([
    'text/html',
    'TEXT/HTML; charset=utf-8',
    'application/xhtml+xml',
    'image/svg+xml',
    'text/xml',
    'application/xml',
    'text/xsl',
    'application/javascript',
    'text/javascript',
    'application/x-ecmascript',
    'multipart/x-mixed-replace; boundary=x',
    '',
    'not a type',
    'text/plain, text/html',
    null,
  ])('%s: served as bytes', (type) => {
    expect(downloadContentType(type)).toBe(SAFE_DOWNLOAD_TYPE);
  });

  it.each([
    ['application/pdf', 'application/pdf'],
    ['image/PNG', 'image/png'],
    ['text/plain; charset=iso-8859-1', 'text/plain'],
    ['text/csv', 'text/csv'],
    ['application/zip; name="a.zip"', 'application/zip'],
  ])('%s: kept as %s (its essence, parameters dropped)', (type, kept) => {
    expect(downloadContentType(type)).toBe(kept);
  });
});
