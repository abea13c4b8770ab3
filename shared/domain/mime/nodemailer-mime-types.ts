/**
 * Stands in for nodemailer's own extension table (nodemailer/dist/esm/mime-funcs/mime-types.js, ~2,000
 * entries, 74 KiB of every bundle that composes mail) in the Lambda bundles: infra/build.ts's
 * nodemailerTypesFromOurTable plugin resolves nodemailer's import of it here. Nodemailer asks it only
 * for a part given a file name and no content type; our composer (./compose.ts) always gives one, so
 * these answers are a fallback: the common types of ./mime-types.ts, else application/octet-stream and
 * `bin`, as nodemailer's own defaults.
 */
import { extensionOfType, typeOfFilename } from './mime-types';

export function detectMimeType(filename: string | undefined): string {
  return filename ? typeOfFilename(filename.split('?')[0]!) : 'application/octet-stream';
}

export function detectExtension(mimeType: string | undefined): string {
  return (mimeType && extensionOfType(mimeType.trim().toLowerCase())) || 'bin';
}
