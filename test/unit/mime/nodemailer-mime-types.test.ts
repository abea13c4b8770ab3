/** The stand-in for nodemailer's extension table in the Lambda bundles (shared/domain/mime/nodemailer-mime-types.ts). */
import { detectExtension, detectMimeType } from '#shared/domain/mime/nodemailer-mime-types';

test("a file name gets the type of its extension, as nodemailer's table answers for the common ones; others are octet-stream", () => {
  expect(detectMimeType('report.PDF')).toBe('application/pdf');
  expect(detectMimeType('logo.png?v=2')).toBe('image/png');
  expect(detectMimeType('archive.unknownext')).toBe('application/octet-stream');
  expect(detectMimeType(undefined)).toBe('application/octet-stream');
});

test("a type gets its extension, else bin (nodemailer's default)", () => {
  expect(detectExtension('image/jpeg')).toBe('jpg');
  expect(detectExtension(' Application/PDF ')).toBe('pdf');
  expect(detectExtension('application/x-made-up')).toBe('bin');
  expect(detectExtension(undefined)).toBe('bin');
});
