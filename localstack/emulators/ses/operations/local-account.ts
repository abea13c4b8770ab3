/**
 * Local only (SES has no API for them): the account's switches and quota, GET and POST /_local/account
 * (../account-limits.ts: suspension among them). An address identity's verification link followed is
 * ./local-confirm-identity.ts.
 */
import type { AccountLimits } from '../account-limits';
import { SesError } from '../errors';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { optBoolean, type Json } from '../validate';
import { accountView } from './get-account';
import { localJson, type LocalReply } from './local-reply';

/** The switches `/_local/account` changes (local only: SES has no API for a suspension). */
export interface LocalAccountSwitches {
  suspended?: boolean;
  sendingEnabled?: boolean;
  maxSendRate?: number | null;
  max24HourSend?: number | null;
}

/** The account as `/_local/account` shows it: GetAccount's answer with the local switches and the refusals. */
function localState(account: AccountLimits): Json {
  return { suspended: account.suspended, sandbox: account.sandbox, throttled: account.throttled, ...accountView(account) };
}

/** The switches a POST asks for, all read before any is applied: a quota is a positive number, or null for none. */
function readSwitches(body: Json): LocalAccountSwitches {
  const bool = (key: 'suspended' | 'sendingEnabled'): boolean | undefined => optBoolean(body[key], key);
  const quota = (key: 'maxSendRate' | 'max24HourSend'): number | null | undefined => {
    const value = body[key];
    if (value === undefined) return undefined;
    if (value === null) return null;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new SesError('BadRequestException', `${key} must be a positive number or null.`);
    return value;
  };
  return {
    suspended: bool('suspended'),
    sendingEnabled: bool('sendingEnabled'),
    maxSendRate: quota('maxSendRate'),
    max24HourSend: quota('max24HourSend'),
  };
}

export function getLocalAccount(state: SesState, _request: SesRequest): LocalReply {
  return localJson(localState(state.account));
}

export async function setLocalAccount(state: SesState, request: SesRequest): Promise<LocalReply> {
  const switches = readSwitches(await request.json());
  const account = state.account;
  if (switches.suspended !== undefined) account.suspended = switches.suspended;
  if (switches.sendingEnabled !== undefined) account.sendingEnabled = switches.sendingEnabled;
  if (switches.maxSendRate !== undefined) account.setMaxSendRate(switches.maxSendRate);
  if (switches.max24HourSend !== undefined) account.max24HourSend = switches.max24HourSend;
  return localJson(localState(account));
}
