/**
 * GetChange (GET /2013-04-01/change/{Id};
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_GetChange.html): the change's ChangeInfo,
 * PENDING until the emulator's `syncDelayMs` has passed, then INSYNC; 404 NoSuchChange for an id it has
 * not answered (changes are not kept across restarts).
 */
import { changeById } from '../changes';
import { changeInfoContent, document, ok, type Route53Reply } from '../encode';
import type { Route53State } from '../state';

export function getChange(state: Route53State, id: string): Route53Reply {
  return ok(document('GetChangeResponse', { ChangeInfo: changeInfoContent(changeById(state, id)) }));
}
