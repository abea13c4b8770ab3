/**
 * Route 53's answers in REST-XML (2013-04-01), written by fast-xml-parser's XMLBuilder: the document
 * (declaration, root in Route 53's namespace), the elements its responses share (HostedZone,
 * ResourceRecordSet, ChangeInfo, DelegationSet), the error document
 * `<ErrorResponse><Error><Type/><Code/><Message/></Error><RequestId/></ErrorResponse>`, and a reply as an
 * action hands it to the HTTP front. TXT values are written in presentation format (quoted strings).
 */
import { XMLBuilder } from 'fast-xml-parser';
import { toQuoted } from '../dns/hosted';
import type { DnsRecordSet } from '../dns/types';
import { changeStatus, type ChangeStatus } from './changes';
import type { Route53Fault } from './errors';
import { dotted } from './names';
import type { Route53State } from './state';
import type { Change, HostedZone } from './types';
import { NAME_SERVERS, zoneSets } from './zone-sets';

/** An action's answer: the XML document, its status, any headers besides content-type and the request id. */
export interface Route53Reply {
  status: number;
  xml: string;
  headers?: Record<string, string>;
}

export const ok = (xml: string): Route53Reply => ({ status: 200, xml });

/**
 * An element's content as XMLBuilder takes it: its child elements by name, written in the object's order; a
 * list (an array) is its element repeated, none when empty; `false` and numbers as their text.
 */
export interface XmlContent {
  [name: string]: string | number | boolean | XmlContent | XmlContent[] | string[];
}

/**
 * No indentation or self-closing tags (`<HostedZones></HostedZones>` for an empty list); text escaped
 * for the five XML characters (processEntities, &amp; first); attributes written from `@_` keys (the
 * root's xmlns only).
 */
const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: false,
  suppressEmptyNode: false,
  processEntities: true,
});

export const ROUTE53_NAMESPACE = 'https://route53.amazonaws.com/doc/2013-04-01/';

/** A whole answer document: the XML declaration, then `<Root xmlns="…">content</Root>`. */
export function document(root: string, content: XmlContent): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [root]: { '@_xmlns': ROUTE53_NAMESPACE, ...content } })}`;
}

export const hostedZoneContent = (state: Route53State, zone: HostedZone): XmlContent => ({
  Id: `/hostedzone/${zone.id}`,
  Name: dotted(zone.name),
  CallerReference: zone.caller_reference,
  Config: { ...(zone.comment ? { Comment: zone.comment } : {}), PrivateZone: zone.private_zone },
  ResourceRecordSetCount: zoneSets(state, zone).length,
});

export const recordSetContent = (set: DnsRecordSet): XmlContent => ({
  Name: dotted(set.name),
  Type: set.type,
  TTL: set.ttl ?? 60,
  ResourceRecords: { ResourceRecord: set.values.map((value) => ({ Value: set.type === 'TXT' ? toQuoted(value) : value })) },
});

/** The change's ChangeInfo; its status as of now unless `status` says. */
export const changeInfoContent = (change: Change, status?: ChangeStatus): XmlContent => ({
  Id: `/change/${change.id}`,
  Status: status ?? changeStatus(change),
  SubmittedAt: change.submitted_at,
  ...(change.comment ? { Comment: change.comment } : {}),
});

export const delegationSetContent = (): XmlContent => ({ NameServers: { NameServer: [...NAME_SERVERS] } });

/** The error document of `fault`: Type Receiver for a 5xx, else Sender. */
export function errorDocument(fault: Route53Fault, requestId: string): string {
  return document('ErrorResponse', {
    Error: { Type: fault.status >= 500 ? 'Receiver' : 'Sender', Code: fault.code, Message: fault.message },
    RequestId: requestId,
  });
}
