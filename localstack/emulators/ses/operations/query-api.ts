/**
 * The SES v1 Query API (a form-encoded POST / with Action=...): not emulated, every action answered
 * 400 InvalidAction in its XML error shape, naming the SESv2 API to use instead.
 */
import { queryErrorXml } from '../errors';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { LocalReply } from './local-reply';

export async function queryApiAction(_state: SesState, request: SesRequest): Promise<LocalReply> {
  const action = (await request.form()).get('Action') ?? '(none)';
  const rid = request.requestId;
  const message = `SES v1 (Query API) action '${action}' is not supported by the local SES emulator; use the SESv2 API (@aws-sdk/client-sesv2).`;
  return {
    status: 400,
    headers: { 'content-type': 'text/xml', 'x-amzn-requestid': rid },
    body: queryErrorXml('InvalidAction', message, rid),
  };
}
