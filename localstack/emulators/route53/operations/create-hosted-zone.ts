/**
 * CreateHostedZone (POST /2013-04-01/hostedzone;
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_CreateHostedZone.html): Name and
 * CallerReference required, HostedZoneConfig's Comment and PrivateZone kept. Answers 201 with the zone,
 * its creation's ChangeInfo, the DelegationSet, and the zone's URL in Location. Here so tests and local
 * users can make zones with the real SDK or CLI; DNS apply never creates zones.
 */
import { recordChange } from '../changes';
import { changeInfoContent, delegationSetContent, document, hostedZoneContent, type Route53Reply } from '../encode';
import { Route53Fault } from '../errors';
import { child, textOf, type XmlElement } from '../request';
import type { Route53State } from '../state';
import { addZone } from '../zones';

export function createHostedZone(state: Route53State, body: XmlElement): Route53Reply {
  const name = textOf(body, 'Name');
  const caller = textOf(body, 'CallerReference');
  if (!name || !caller) throw new Route53Fault(400, 'InvalidInput', 'Name and CallerReference are required.');
  const config = child(body, 'HostedZoneConfig');
  const zone = addZone(state, name, caller, textOf(config, 'Comment') ?? null, textOf(config, 'PrivateZone') === 'true');
  const change = recordChange(state, null);
  const xml = document('CreateHostedZoneResponse', {
    HostedZone: hostedZoneContent(state, zone),
    ChangeInfo: changeInfoContent(change),
    DelegationSet: delegationSetContent(),
  });
  return { status: 201, xml, headers: { location: `https://route53.amazonaws.com/2013-04-01/hostedzone/${zone.id}` } };
}
