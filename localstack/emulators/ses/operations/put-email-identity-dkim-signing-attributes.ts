/**
 * PutEmailIdentityDkimSigningAttributes (PUT /v2/email/identities/{EmailIdentity}/dkim/signing): a domain's
 * DKIM switched to BYODKIM (SigningAttributesOrigin EXTERNAL, a real RSA key) or Easy DKIM (AWS_SES...).
 */
import { badRequest } from '../errors';
import { easyDkim, parseExternalSigning, requireIdentity } from '../identities';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { IdentityDkim, OperationResult } from '../types';
import { optObject, optString } from '../validate';
import { pendingSince, verificationOf } from '../verification';

export async function putEmailIdentityDkimSigningAttributes(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const identity = requireIdentity(state.store, request.params[0]!);
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
  state.store.putIdentity({ ...identity, dkim, verification, updatedAt: now });
  return { body: { DkimStatus: verification.status, DkimTokens: dkim.origin === 'EXTERNAL' ? [dkim.selector] : dkim.tokens } };
}
