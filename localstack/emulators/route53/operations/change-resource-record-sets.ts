/**
 * ChangeResourceRecordSets (POST /2013-04-01/hostedzone/{Id}/rrset;
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_ChangeResourceRecordSets.html): CREATE,
 * UPSERT and DELETE of A, AAAA, CNAME, MX and TXT sets, all or nothing (../change-batch.ts): a batch with
 * any problem is 400 InvalidChangeBatch naming each, and nothing is written. A written batch is at once in
 * the DNS emulator; its ChangeInfo answers PENDING, as Route 53's does.
 */
import { applyBatch, planBatch } from '../change-batch';
import { recordChange } from '../changes';
import { changeInfoContent, document, ok, type Route53Reply } from '../encode';
import { Route53Fault } from '../errors';
import type { Route53State } from '../state';
import type { HostedZone } from '../types';
import { child, children, textOf, type XmlElement } from '../request';

export function changeResourceRecordSets(state: Route53State, zone: HostedZone, body: XmlElement): Route53Reply {
  const batch = child(body, 'ChangeBatch');
  const changes = children(child(batch, 'Changes'), 'Change');
  if (changes.length === 0) throw new Route53Fault(400, 'InvalidInput', 'ChangeBatch.Changes must contain at least one Change.');
  const { after, problems } = planBatch(state.dns, zone, changes);
  if (problems.length > 0) throw new Route53Fault(400, 'InvalidChangeBatch', [...new Set(problems)].join('; '));
  applyBatch(state.dns, after);
  const change = recordChange(state, textOf(batch, 'Comment') ?? null);
  state.log(`route53: ${changes.length} change(s) in ${zone.name} (${change.id})`);
  return ok(document('ChangeResourceRecordSetsResponse', { ChangeInfo: changeInfoContent(change, 'PENDING') }));
}
