/**
 * Email identities as the SESv2 identity operations share them (operations/create-email-identity.ts,
 * get-, list-, delete-email-identity.ts, put-email-identity-dkim-signing-attributes.ts,
 * put-email-identity-mail-from-attributes.ts): what a valid name is, their DKIM (Easy DKIM's tokens, or a
 * BYODKIM key, which must be a real RSA key, as SES checks) and its attributes in answers. Identities
 * start PENDING and are verified once DNS shows their records (./verification.ts, checked when an
 * operation looks at them). Throws SesError for client errors.
 */
import { createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { badRequest, notFound } from './errors';
import type { SesStore } from './store';
import type { EmailIdentity, IdentityDkim, VerificationStatus } from './types';
import { optString, type Json } from './validate';

/** SESv2 DomainSigningSelector pattern (at most 63 characters). */
const SELECTOR = /^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))$/;
/** SESv2 DomainSigningPrivateKey pattern (1-20480 characters): plain base64, no armour, no line breaks. */
const PRIVATE_KEY = /^[a-zA-Z0-9+/]+={0,2}$/;
const DOMAIN_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
export const BEHAVIORS = ['USE_DEFAULT_VALUE', 'REJECT_MESSAGE'] as const;
const KEY_LENGTHS = ['RSA_1024_BIT', 'RSA_2048_BIT'] as const;

export function isDomainName(name: string): boolean {
  const labels = name.split('.');
  return name.length <= 253 && labels.length >= 2 && labels.every((label) => DOMAIN_LABEL.test(label));
}

/** Parses the BYODKIM attributes: a valid selector and a base64 DER RSA private key of 1024 or 2048 bits. */
export function parseExternalSigning(attrs: Json, field: string): Extract<IdentityDkim, { origin: 'EXTERNAL' }> {
  const selector = optString(attrs.DomainSigningSelector, `${field}.DomainSigningSelector`);
  const encoded = optString(attrs.DomainSigningPrivateKey, `${field}.DomainSigningPrivateKey`);
  if (!selector || !encoded)
    throw badRequest(`${field} needs both DomainSigningSelector and DomainSigningPrivateKey for Bring Your Own DKIM.`);
  if (selector.length > 63 || !SELECTOR.test(selector))
    throw badRequest(`${field}.DomainSigningSelector '${selector}' is not a valid selector.`);
  const invalidKey = `${field}.DomainSigningPrivateKey must be the base64 of a DER-encoded RSA private key (PKCS#1 or PKCS#8), without PEM armour or line breaks.`;
  if (encoded.length > 20480 || !PRIVATE_KEY.test(encoded)) throw badRequest(invalidKey);
  const der = Buffer.from(encoded, 'base64');
  let key: KeyObject | undefined;
  for (const type of ['pkcs8', 'pkcs1'] as const) {
    try {
      key = createPrivateKey({ key: der, format: 'der', type });
      break;
    } catch {
      // try the other encoding
    }
  }
  if (key?.asymmetricKeyType !== 'rsa') throw badRequest(invalidKey);
  const keyBits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (keyBits !== 1024 && keyBits !== 2048)
    throw badRequest(`${field}.DomainSigningPrivateKey must be a 1024- or 2048-bit RSA key, got ${keyBits} bits.`);
  const publicKey = createPublicKey(key).export({ type: 'spki', format: 'der' }).toString('base64');
  // Kept so that sends from the domain are signed with it (./dkim-signing.ts); never returned.
  const privateKeyPem = key.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { origin: 'EXTERNAL', selector, publicKey, keyBits, privateKeyPem };
}

export function easyDkim(keyLength: unknown, field: string): Extract<IdentityDkim, { origin: 'AWS_SES' }> {
  const length = optString(keyLength, field) ?? 'RSA_2048_BIT';
  if (!(KEY_LENGTHS as readonly string[]).includes(length)) throw badRequest(`${field} must be one of ${KEY_LENGTHS.join(', ')}.`);
  const token = (): string => randomBytes(20).toString('hex').slice(0, 32);
  return { origin: 'AWS_SES', tokens: [token(), token(), token()], keyLength: length as (typeof KEY_LENGTHS)[number] };
}

/** A domain's DKIM status is its verification status (SESv2 verifies domains by their DKIM records). */
export function dkimAttributes(dkim: IdentityDkim | null, status: VerificationStatus): Json {
  if (!dkim) return { SigningEnabled: false, Status: 'NOT_STARTED', Tokens: [] };
  if (dkim.origin === 'EXTERNAL')
    return { SigningEnabled: true, Status: status, Tokens: [dkim.selector], SigningAttributesOrigin: 'EXTERNAL' };
  return {
    SigningEnabled: true,
    Status: status,
    Tokens: dkim.tokens,
    SigningAttributesOrigin: 'AWS_SES',
    CurrentSigningKeyLength: dkim.keyLength,
    NextSigningKeyLength: dkim.keyLength,
  };
}

/** A new identity's DKIM: a domain's BYODKIM key when given, else Easy DKIM; an address has none. */
export function identityDkim(type: EmailIdentity['type'], signing: Json | undefined): IdentityDkim | null {
  if (type === 'DOMAIN') {
    const byo = signing && (signing.DomainSigningSelector !== undefined || signing.DomainSigningPrivateKey !== undefined);
    return byo
      ? parseExternalSigning(signing, 'DkimSigningAttributes')
      : easyDkim(signing?.NextSigningKeyLength, 'DkimSigningAttributes.NextSigningKeyLength');
  }
  if (signing) throw badRequest('DkimSigningAttributes apply to domain identities only.');
  return null;
}

export function requireIdentity(store: SesStore, name: string): EmailIdentity {
  const identity = store.getIdentity(name);
  if (!identity) throw notFound(`Email identity <${name}> does not exist.`);
  return identity;
}
