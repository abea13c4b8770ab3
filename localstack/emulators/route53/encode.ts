/**
 * Route 53's answers in REST-XML (2013-04-01): the elements its responses share (HostedZone,
 * ResourceRecordSet, ChangeInfo, DelegationSet), the error document
 * `<ErrorResponse><Error><Type/><Code/><Message/></Error><RequestId/></ErrorResponse>`, and a reply as an
 * action hands it to the HTTP front. TXT values are written in presentation format (quoted strings).
 */
import { toQuoted } from '../dns/hosted';
import type { DnsRecordSet } from '../dns/types';
import { changeStatus, type ChangeStatus } from './changes';
import type { Route53Fault } from './errors';
import { dotted } from './names';
import type { Route53State } from './state';
import type { Change, HostedZone } from './types';
import { document, leaf, node, type XmlNode } from './xml';
import { NAME_SERVERS, zoneSets } from './zone-sets';

/** An action's answer: the XML document, its status, any headers besides content-type and the request id. */
export interface Route53Reply {
  status: number;
  xml: string;
  headers?: Record<string, string>;
}

export const ok = (xml: string): Route53Reply => ({ status: 200, xml });

export const hostedZoneNode = (state: Route53State, zone: HostedZone): XmlNode =>
  node('HostedZone', [
    leaf('Id', `/hostedzone/${zone.id}`),
    leaf('Name', dotted(zone.name)),
    leaf('CallerReference', zone.caller_reference),
    node('Config', [...(zone.comment ? [leaf('Comment', zone.comment)] : []), leaf('PrivateZone', zone.private_zone)]),
    leaf('ResourceRecordSetCount', zoneSets(state, zone).length),
  ]);

export const recordSetNode = (set: DnsRecordSet): XmlNode =>
  node('ResourceRecordSet', [
    leaf('Name', dotted(set.name)),
    leaf('Type', set.type),
    leaf('TTL', set.ttl ?? 60),
    node(
      'ResourceRecords',
      set.values.map((value) => node('ResourceRecord', [leaf('Value', set.type === 'TXT' ? toQuoted(value) : value)])),
    ),
  ]);

/** The change's ChangeInfo; its status as of now unless `status` says. */
export const changeInfoNode = (change: Change, status?: ChangeStatus): XmlNode =>
  node('ChangeInfo', [
    leaf('Id', `/change/${change.id}`),
    leaf('Status', status ?? changeStatus(change)),
    leaf('SubmittedAt', change.submitted_at),
    ...(change.comment ? [leaf('Comment', change.comment)] : []),
  ]);

export const delegationSetNode = (): XmlNode =>
  node('DelegationSet', [
    node(
      'NameServers',
      NAME_SERVERS.map((ns) => leaf('NameServer', ns)),
    ),
  ]);

/** The error document of `fault`: Type Receiver for a 5xx, else Sender. */
export function errorDocument(fault: Route53Fault, requestId: string): string {
  return document('ErrorResponse', [
    node('Error', [leaf('Type', fault.status >= 500 ? 'Receiver' : 'Sender'), leaf('Code', fault.code), leaf('Message', fault.message)]),
    leaf('RequestId', requestId),
  ]);
}
