/**
 * What a dashboard password may be (docs/dashboard.md): at least 12 characters (NIST SP 800-63B's
 * advice for a password that is the only factor is at least 8, 15 preferred; 12 is the floor we hold),
 * at most 256, any characters (spaces and Unicode included; compared after NFC normalisation, so the
 * same text typed on two systems matches). No composition rules: length is what makes a password strong.
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

/** The password of a new user (also checked by the admin CLI before anything is written). */
export const newPasswordSchema = z
  .string({ error: 'password must be a string' })
  .refine(
    (value) => [...value.normalize('NFC')].length >= MIN_PASSWORD_LENGTH,
    `password must be at least ${MIN_PASSWORD_LENGTH} characters`,
  )
  .refine(
    (value) => [...value.normalize('NFC')].length <= MAX_PASSWORD_LENGTH,
    `password must be at most ${MAX_PASSWORD_LENGTH} characters`,
  );

/** A password for someone who did not choose one: 18 random bytes, 24 base64url characters (144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
