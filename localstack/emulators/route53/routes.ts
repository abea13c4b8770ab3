/**
 * The routing table of Route 53's REST-XML API (2013-04-01): method and path to the action (a module of
 * its own each), and what each action is handed (the query, the XML body, the zone a path names: looked
 * up before the method, so an unknown zone is NoSuchHostedZone whatever the method). Anything else is
 * 404 UnknownOperationException.
 *
 *   POST /2013-04-01/hostedzone                    CreateHostedZone
 *   GET  /2013-04-01/hostedzonesbyname             ListHostedZonesByName (dnsname, hostedzoneid, maxitems)
 *   GET  /2013-04-01/hostedzone/{Id}/rrset         ListResourceRecordSets (name, type, maxitems); SOA and NS synthesised
 *   POST /2013-04-01/hostedzone/{Id}/rrset         ChangeResourceRecordSets (CREATE, UPSERT, DELETE; all or nothing)
 *   GET  /2013-04-01/change/{Id}                   GetChange (PENDING until syncDelayMs has passed, then INSYNC)
 */
import { answerRoute, plainPath, resolvedPath, type PathRoute } from '../path-routes';
import * as op from './operations';
import type { Route53Reply } from './encode';
import { Route53Fault } from './errors';
import type { XmlElement } from './request';
import type { Route53State } from './state';
import { zoneById } from './zones';

/** What an action may read of its request; the body is parsed when an action asks for it. */
export interface Route53Request {
  query: URLSearchParams;
  body(): XmlElement;
}

type Route = PathRoute<Route53State, Route53Request, Route53Reply>;

const ROUTES: Route[] = [
  plainPath(/^\/2013-04-01\/hostedzone$/, { POST: (state, request) => op.createHostedZone(state, request.body()) }),
  plainPath(/^\/2013-04-01\/hostedzonesbyname$/, { GET: (state, request) => op.listHostedZonesByName(state, request.query) }),
  resolvedPath(/^\/2013-04-01\/hostedzone\/([^/]+)\/rrset\/?$/, (state, [id]) => zoneById(state, decodeURIComponent(id!)), {
    GET: (state, request, zone) => op.listResourceRecordSets(state, zone, request.query),
    POST: (state, request, zone) => op.changeResourceRecordSets(state, zone, request.body()),
  }),
  plainPath(/^\/2013-04-01\/change\/([^/]+)$/, { GET: (state, _request, [id]) => op.getChange(state, decodeURIComponent(id!)) }),
];

/** The reply of the action `method` and `pathname` name; 404 UnknownOperationException when they name none. */
export function answerRequest(state: Route53State, method: string, pathname: string, request: Route53Request): Route53Reply {
  const reply = answerRoute(ROUTES, state, method, pathname, request);
  if (!reply) throw new Route53Fault(404, 'UnknownOperationException', `The Route 53 emulator does not implement ${method} ${pathname}.`);
  return reply;
}
