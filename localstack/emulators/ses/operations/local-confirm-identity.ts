/**
 * Local only: an address identity's verification link followed, POST /_local/identities/{address}/confirm
 * (SES mails the link; the emulator sends none, docs/local-cloud/ses.md "Identity verification"), for
 * sandbox recipients and senders.
 */
import { SesError } from '../errors';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { localJson, type LocalReply } from './local-reply';

export async function confirmIdentity(state: SesState, request: SesRequest): Promise<LocalReply> {
  const address = request.params[0] ?? '';
  if (state.verifier.confirm(address) === undefined)
    throw new SesError('NotFoundException', `Email address identity <${address}> does not exist.`);
  await state.store.settingsDurable();
  return localJson({ identity: address, verified_for_sending: true });
}
