/**
 * The SESv2 email identity operations (CreateEmailIdentity, GetEmailIdentity, ListEmailIdentities,
 * DeleteEmailIdentity, PutEmailIdentityDkimSigningAttributes, PutEmailIdentityMailFromAttributes) on
 * parsed JSON bodies. Identities start PENDING and are verified once DNS shows their records
 * (./verification.ts, checked when an operation looks at them); a BYODKIM key must be a real RSA key,
 * as SES checks. Throws SesError for client errors; knows nothing about HTTP.
 */
import { createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { SesError, alreadyExists, badRequest, notFound } from './errors';
import { isValidAddress } from './mime';
import { page } from './paging';
import type { SesStore } from './store';
import type { EmailIdentity, IdentityDkim, OperationResult, VerificationStatus } from './types';
import { pendingSince, verificationOf, type IdentityVerifier } from './verification';
import { optArray, optObject, optString, reqString, type Json } from './validate';

export interface IdentityOptions {
  /** CreateEmailIdentity refuses names matching this (LimitExceededException): to test failure paths. */
  refuseIdentities?: RegExp;
  verifier: IdentityVerifier;
  log: (msg: string) => void;
}

/** SESv2 DomainSigningSelector pattern (at most 63 characters). */
const SELECTOR = /^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))$/;
/** SESv2 DomainSigningPrivateKey pattern (1-20480 characters): plain base64, no armour, no line breaks. */
const PRIVATE_KEY = /^[a-zA-Z0-9+/]+={0,2}$/;
const DOMAIN_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
const BEHAVIORS = ['USE_DEFAULT_VALUE', 'REJECT_MESSAGE'] as const;
const KEY_LENGTHS = ['RSA_1024_BIT', 'RSA_2048_BIT'] as const;

function isDomainName(name: string): boolean {
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

function easyDkim(keyLength: unknown, field: string): Extract<IdentityDkim, { origin: 'AWS_SES' }> {
  const length = optString(keyLength, field) ?? 'RSA_2048_BIT';
  if (!(KEY_LENGTHS as readonly string[]).includes(length)) throw badRequest(`${field} must be one of ${KEY_LENGTHS.join(', ')}.`);
  const token = (): string => randomBytes(20).toString('hex').slice(0, 32);
  return { origin: 'AWS_SES', tokens: [token(), token(), token()], keyLength: length as (typeof KEY_LENGTHS)[number] };
}

/** A domain's DKIM status is its verification status (SESv2 verifies domains by their DKIM records). */
function dkimAttributes(dkim: IdentityDkim | null, status: VerificationStatus): Json {
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

export class IdentityService {
  constructor(
    private readonly store: SesStore,
    private readonly opts: IdentityOptions,
  ) {}

  createEmailIdentity(body: Json): OperationResult {
    const name = reqString(body.EmailIdentity, 'EmailIdentity');
    const type = name.includes('@') ? 'EMAIL_ADDRESS' : 'DOMAIN';
    if (type === 'EMAIL_ADDRESS' ? !isValidAddress(name) : !isDomainName(name))
      throw badRequest(`EmailIdentity '${name}' is not a valid domain or email address.`);
    if (this.store.getIdentity(name)) throw alreadyExists(`Email identity <${name}> already exists.`);
    const refuse = this.opts.refuseIdentities;
    if (refuse) {
      refuse.lastIndex = 0;
      if (refuse.test(name))
        throw new SesError('LimitExceededException', `Email identity <${name}> refused by the local SES emulator (refuseIdentities).`);
    }
    const configurationSet = optString(body.ConfigurationSetName, 'ConfigurationSetName') || null;
    if (configurationSet && !this.store.getConfigSet(configurationSet))
      throw notFound(`Configuration set <${configurationSet}> does not exist.`);
    const tags = optArray(body.Tags, 'Tags');

    const signing = optObject(body.DkimSigningAttributes, 'DkimSigningAttributes');
    let dkim: IdentityDkim | null = null;
    if (type === 'DOMAIN') {
      const byo = signing && (signing.DomainSigningSelector !== undefined || signing.DomainSigningPrivateKey !== undefined);
      dkim = byo
        ? parseExternalSigning(signing, 'DkimSigningAttributes')
        : easyDkim(signing?.NextSigningKeyLength, 'DkimSigningAttributes.NextSigningKeyLength');
    } else if (signing) {
      throw badRequest('DkimSigningAttributes apply to domain identities only.');
    }

    const now = new Date().toISOString();
    // Verification starts now and ends later, when DNS shows the records (./verification.ts): never in this answer.
    const identity: EmailIdentity = {
      name,
      type,
      createdAt: now,
      updatedAt: now,
      configurationSet,
      tags,
      dkim,
      mailFrom: null,
      verification: pendingSince(now),
    };
    this.store.putIdentity(identity);
    this.opts.log(`identity ${name} created (${dkim ? `DKIM ${dkim.origin}` : 'no DKIM'}), verification PENDING`);
    return { body: { IdentityType: type, VerifiedForSendingStatus: false, DkimAttributes: dkimAttributes(dkim, 'PENDING') } };
  }

  async getEmailIdentity(name: string): Promise<OperationResult> {
    const identity = await this.opts.verifier.refresh(this.require(name));
    const status = verificationOf(identity).status;
    return {
      body: {
        IdentityType: identity.type,
        // PutEmailIdentityFeedbackAttributes (feedback-forwarding.ts); on by default.
        FeedbackForwardingStatus: identity.feedbackForwarding ?? true,
        VerifiedForSendingStatus: status === 'SUCCESS',
        VerificationStatus: status,
        DkimAttributes: dkimAttributes(identity.dkim, status),
        ...(identity.mailFrom
          ? {
              MailFromAttributes: {
                MailFromDomain: identity.mailFrom.domain,
                MailFromDomainStatus: identity.mailFrom.status ?? 'PENDING',
                BehaviorOnMxFailure: identity.mailFrom.behaviorOnMxFailure,
              },
            }
          : {}),
        Policies: {},
        Tags: identity.tags,
        ...(identity.configurationSet ? { ConfigurationSetName: identity.configurationSet } : {}),
      },
    };
  }

  /** Both wire forms: POST /v2/email/list-identities (current SDK) and GET /v2/email/identities (older SDKs). */
  async listEmailIdentities(nextToken: string | undefined, pageSize: number | undefined): Promise<OperationResult> {
    const { items, next } = page(this.store.listIdentities(), nextToken, pageSize);
    const shown = await Promise.all(items.map((i) => this.opts.verifier.refresh(i)));
    return {
      body: {
        EmailIdentities: shown.map((i) => ({
          IdentityType: i.type,
          IdentityName: i.name,
          SendingEnabled: true,
          VerificationStatus: verificationOf(i).status,
        })),
        ...(next !== undefined ? { NextToken: next } : {}),
      },
    };
  }

  deleteEmailIdentity(name: string): OperationResult {
    if (!this.store.deleteIdentity(name)) throw notFound(`Email identity <${name}> does not exist.`);
    this.opts.log(`identity ${name} deleted`);
    return { body: {} };
  }

  putDkimSigningAttributes(name: string, body: Json): OperationResult {
    const identity = this.require(name);
    if (identity.type !== 'DOMAIN') throw badRequest('DKIM signing attributes apply to domain identities only.');
    const origin = optString(body.SigningAttributesOrigin, 'SigningAttributesOrigin');
    const attrs = optObject(body.SigningAttributes, 'SigningAttributes');
    let dkim: IdentityDkim;
    let verification = verificationOf(identity);
    if (origin === 'EXTERNAL') {
      dkim = parseExternalSigning(attrs ?? {}, 'SigningAttributes');
    } else if (origin && /^AWS_SES(_[A-Z0-9_]+)?$/.test(origin)) {
      const current = identity.dkim?.origin === 'AWS_SES' ? identity.dkim : undefined;
      dkim =
        current && attrs?.NextSigningKeyLength === undefined
          ? current
          : easyDkim(attrs?.NextSigningKeyLength, 'SigningAttributes.NextSigningKeyLength');
    } else {
      throw badRequest('SigningAttributesOrigin is required: EXTERNAL (Bring Your Own DKIM) or AWS_SES (Easy DKIM).');
    }
    const now = new Date().toISOString();
    // New signing attributes restart verification: SES looks for the new records (the emulator's strict
    // reading of the BYODKIM guide; SES documents no exception for an unchanged key). Easy DKIM's kept keys do not.
    if (dkim !== identity.dkim) verification = pendingSince(now);
    this.store.putIdentity({ ...identity, dkim, verification, updatedAt: now });
    return { body: { DkimStatus: verification.status, DkimTokens: dkim.origin === 'EXTERNAL' ? [dkim.selector] : dkim.tokens } };
  }

  /** A MailFromDomain must be a subdomain of the identity's domain; none (or empty) turns custom MAIL FROM off. */
  putMailFromAttributes(name: string, body: Json): OperationResult {
    const identity = this.require(name);
    const domain = optString(body.MailFromDomain, 'MailFromDomain') || undefined;
    const behavior = optString(body.BehaviorOnMxFailure, 'BehaviorOnMxFailure') ?? 'USE_DEFAULT_VALUE';
    if (!(BEHAVIORS as readonly string[]).includes(behavior))
      throw badRequest(`BehaviorOnMxFailure must be one of ${BEHAVIORS.join(', ')}.`);
    let mailFrom: EmailIdentity['mailFrom'] = null;
    if (domain) {
      const parent = (identity.type === 'DOMAIN' ? identity.name : (identity.name.split('@')[1] ?? '')).toLowerCase();
      if (!isDomainName(domain) || !domain.toLowerCase().endsWith(`.${parent}`)) {
        throw badRequest(`MailFromDomain '${domain}' must be a subdomain of ${parent}.`);
      }
      // The same domain keeps its MX check's result; a new one is PENDING until DNS shows its MX record.
      const status = identity.mailFrom?.domain.toLowerCase() === domain.toLowerCase() ? (identity.mailFrom.status ?? 'PENDING') : 'PENDING';
      mailFrom = { domain, behaviorOnMxFailure: behavior as (typeof BEHAVIORS)[number], status };
    }
    this.store.putIdentity({ ...identity, mailFrom, updatedAt: new Date().toISOString() });
    return { body: {} };
  }

  private require(name: string): EmailIdentity {
    const identity = this.store.getIdentity(name);
    if (!identity) throw notFound(`Email identity <${name}> does not exist.`);
    return identity;
  }
}
