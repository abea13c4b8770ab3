/**
 * The routing table of the fake Cloudflare API (v4; the paths with or without /client/v4): method and
 * path to the call (a module of its own each), and what each call is handed (the query, the JSON body,
 * the zone and record a path names: looked up before the method, so an unknown one is "not found"
 * whatever the method). Anything else is 404 code 7000 "No route for that URI".
 *
 *   GET    /client/v4/user/tokens/verify
 *   GET    /client/v4/zones?name=&page=&per_page=
 *   POST   /client/v4/zones                                 {name}  (tests and local users make zones so)
 *   GET    /client/v4/zones/{zone}
 *   GET    /client/v4/zones/{zone}/dns_records?type=&name=&page=&per_page=
 *   POST   /client/v4/zones/{zone}/dns_records              {type, name, content, ttl?, priority?, proxied?}
 *   GET    /client/v4/zones/{zone}/dns_records/{id}
 *   PUT    /client/v4/zones/{zone}/dns_records/{id}         (PATCH too)
 *   DELETE /client/v4/zones/{zone}/dns_records/{id}
 */
import { answerRoute, plainPath, resolvedPath, type PathRoute } from '../path-routes';
import * as op from './operations';
import type { CloudflareReply } from './envelope';
import { CloudflareFault } from './errors';
import { findRecord } from './records';
import type { CloudflareState } from './state';
import { zoneById } from './zones';

/** What a call may read of its request. */
export interface CloudflareRequest {
  query: URLSearchParams;
  body: Record<string, unknown>;
}

type Route = PathRoute<CloudflareState, CloudflareRequest, CloudflareReply>;

const ROUTES: Route[] = [
  plainPath(/^\/user\/tokens\/verify$/, { GET: () => op.verifyToken() }),
  plainPath(/^\/zones$/, {
    POST: (state, request) => op.createZone(state, request.body),
    GET: (state, request) => op.listZones(state, request.query),
  }),
  plainPath(/^\/zones\/([^/]+)$/, { GET: (state, _request, [id]) => op.getZone(state, id!) }),
  resolvedPath(/^\/zones\/([^/]+)\/dns_records$/, (state, [zoneId]) => zoneById(state, zoneId!), {
    GET: (state, request, zone) => op.listDnsRecords(state, zone, request.query),
    POST: (state, request, zone) => op.createDnsRecord(state, zone, request.body),
  }),
  resolvedPath(
    /^\/zones\/([^/]+)\/dns_records\/([^/]+)$/,
    (state, [zoneId, id]) => {
      const zone = zoneById(state, zoneId!);
      return { zone, id: id!, record: findRecord(state, zone, id!) };
    },
    {
      GET: (_state, _request, { zone, record }) => op.getDnsRecord(zone, record),
      DELETE: (state, _request, { id, record }) => op.deleteDnsRecord(state, id, record),
      PUT: (state, request, { zone, record }) => op.overwriteDnsRecord(state, zone, record, request.body),
      PATCH: (state, request, { zone, record }) => op.editDnsRecord(state, zone, record, request.body),
    },
  ),
];

/** The reply of the call `method` and `pathname` name; 404 code 7000 when they name none. */
export function answerRequest(state: CloudflareState, method: string, pathname: string, request: CloudflareRequest): CloudflareReply {
  const reply = answerRoute(ROUTES, state, method, pathname.replace(/^\/client\/v4/, ''), request);
  if (!reply) throw new CloudflareFault(404, 7000, 'No route for that URI');
  return reply;
}
