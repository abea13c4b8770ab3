/**
 * CreateEmailIdentity (POST /v2/email/identities): a domain (Easy DKIM, or BYODKIM with
 * DkimSigningAttributes) or an email address, PENDING until DNS shows its records (../verification.ts);
 * 400 AlreadyExistsException for a name in use (case-insensitive), LimitExceededException for a name the
 * emulator was told to refuse (its refuseIdentities option, for failure tests).
 */
import { SesError, alreadyExists, badRequest, notFound } from '../errors';
import { dkimAttributes, identityDkim, isDomainName } from '../identities';
import { isValidAddress } from '../mime';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { EmailIdentity, OperationResult } from '../types';
import { pendingSince } from '../verification';
import { optArray, optObject, optString, reqString } from '../validate';

export async function createEmailIdentity(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const name = reqString(body.EmailIdentity, 'EmailIdentity');
  const type = name.includes('@') ? 'EMAIL_ADDRESS' : 'DOMAIN';
  if (type === 'EMAIL_ADDRESS' ? !isValidAddress(name) : !isDomainName(name))
    throw badRequest(`EmailIdentity '${name}' is not a valid domain or email address.`);
  if (state.store.getIdentity(name)) throw alreadyExists(`Email identity <${name}> already exists.`);
  const refuse = state.refuseIdentities;
  if (refuse) {
    refuse.lastIndex = 0;
    if (refuse.test(name))
      throw new SesError('LimitExceededException', `Email identity <${name}> refused by the local SES emulator (refuseIdentities).`);
  }
  const configurationSet = optString(body.ConfigurationSetName, 'ConfigurationSetName') || null;
  if (configurationSet && !state.store.getConfigSet(configurationSet))
    throw notFound(`Configuration set <${configurationSet}> does not exist.`);
  const tags = optArray(body.Tags, 'Tags');
  const dkim = identityDkim(type, optObject(body.DkimSigningAttributes, 'DkimSigningAttributes'));

  const now = new Date().toISOString();
  // Verification starts now and ends later, when DNS shows the records (../verification.ts): never in this answer.
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
  state.store.putIdentity(identity);
  state.log(`identity ${name} created (${dkim ? `DKIM ${dkim.origin}` : 'no DKIM'}), verification PENDING`);
  return { body: { IdentityType: type, VerifiedForSendingStatus: false, DkimAttributes: dkimAttributes(dkim, 'PENDING') } };
}
